// The route plugins of every feature module, registered by app.ts in this order.
import type { FeatureRoutes } from '../platform/feature.js';
import type { OperatorActions } from '../platform/operator-channel.js';
import { notifyOperatorAction } from './notifications/notifications.cli.js';
import { clientCreateOperatorAction, clientListOperatorAction } from './auth/clients.operator.js';
import { usersRoutes } from './users/users.routes.js';
import { oauthRoutes } from './auth/oauth.routes.js';
import { mfaRoutes } from './mfa/mfa.routes.js';
import { boundaryRoutes } from './boundaries/boundaries.routes.js';
import { listingSearchRoutes } from './listings/search/search.routes.js';
import { listingRoutes } from './listings/listings.routes.js';
import { contactRoutes } from './contacts/contacts.routes.js';
import { timelineRoutes } from './contacts/timeline.routes.js';
import { leadRoutes } from './contacts/leads.routes.js';
import { dealRoutes } from './deals/deals.routes.js';
import { showingRoutes } from './showings/showings.routes.js';
import { webRoutes } from '../web/authorize.routes.js';
import { brandRoutes } from './brands/brands.routes.js';
import { demoLogoRoutes } from './brands/demo-logos.routes.js';
import { demoPhotoRoutes } from './listings/demo-photos.routes.js';
import { operatorStatusRoutes } from './brands/operator-status.routes.js';
import { savedSearchRoutes } from './saved-searches/saved-searches.routes.js';
import { webhookRoutes } from './webhooks/webhooks.routes.js';
import { webhookLogRoutes } from './webhooks/log.routes.js';
import { emailRoutes } from './emails/emails.routes.js';
import { notificationRoutes } from './notifications/notifications.routes.js';
import { tokenRoutes } from './notifications/tokens.routes.js';
import { streamRoutes } from './notifications/stream.routes.js';
import { templateRoutes } from './templates/templates.routes.js';
import { fileRoutes } from '../files/files.routes.js';
import { instanceRoutes } from './templates/instances.routes.js';
import { printCampaignRoutes } from './print-campaigns/print-campaigns.routes.js';
import { mailTrackingRoutes } from '../mail/tracking.routes.js';
import { extmailRoutes } from './extmail/extmail.routes.js';
import { triggerRoutes } from './triggers/triggers.routes.js';
import { mailListOperatorAction, mailShowOperatorAction } from '../mail/mail.cli.js';
import { brandTriggerRoutes } from './triggers/brand-triggers.routes.js';

export const featureRoutes: FeatureRoutes[] = [
  webRoutes,
  oauthRoutes,
  mfaRoutes,
  usersRoutes,
  brandRoutes,
  demoLogoRoutes,
  demoPhotoRoutes,
  operatorStatusRoutes,
  boundaryRoutes,
  listingSearchRoutes,
  listingRoutes,
  contactRoutes,
  timelineRoutes,
  leadRoutes,
  savedSearchRoutes,
  webhookRoutes,
  webhookLogRoutes,
  emailRoutes,
  notificationRoutes,
  tokenRoutes,
  streamRoutes,
  templateRoutes,
  instanceRoutes,
  printCampaignRoutes,
  fileRoutes,
  dealRoutes,
  showingRoutes,
  mailTrackingRoutes,
  extmailRoutes,
  triggerRoutes,
  brandTriggerRoutes,
];

/**
 * What an operator command may ask a running embedded server to do (platform/operator-channel.ts): work that
 * must happen in the process holding DATA_DIR to act live. Each module adds its own.
 */
export const operatorActions: OperatorActions = {
  notify: notifyOperatorAction,
  'client.create': clientCreateOperatorAction,
  'client.list': clientListOperatorAction,
  'mail.list': mailListOperatorAction,
  'mail.show': mailShowOperatorAction,
};
