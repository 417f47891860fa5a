// The route plugins of every feature module, registered by app.ts in this order.
import type { FeatureRoutes } from './platform/feature.js';
import type { OperatorActions } from './platform/operator-channel.js';
import { notifyOperatorAction } from './modules/notifications/notifications.cli.js';
import {
  clientCreateOperatorAction,
  clientListOperatorAction,
  clientScopesOperatorAction,
} from './modules/auth/clients.operator.js';
import { keysRotateOperatorAction } from './modules/auth/signing-keys.operator.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { oauthRoutes } from './modules/auth/oauth.routes.js';
import { mfaRoutes } from './modules/mfa/mfa.routes.js';
import { boundaryRoutes } from './modules/boundaries/boundaries.routes.js';
import { listingSearchRoutes } from './modules/listings/search/search.routes.js';
import { listingRoutes } from './modules/listings/listings.routes.js';
import { contactRoutes } from './modules/contacts/contacts.routes.js';
import { timelineRoutes } from './modules/contacts/timeline.routes.js';
import { leadRoutes } from './modules/contacts/leads.routes.js';
import { dealRoutes } from './modules/deals/deals.routes.js';
import { showingRoutes } from './modules/showings/showings.routes.js';
import { webRoutes } from './web/authorize.routes.js';
import { brandRoutes } from './modules/brands/brands.routes.js';
import { demoLogoRoutes } from './modules/brands/demo-logos.routes.js';
import { demoPhotoRoutes } from './modules/listings/demo-photos.routes.js';
import { operatorStatusRoutes } from './modules/brands/operator-status.routes.js';
import { savedSearchRoutes } from './modules/saved-searches/saved-searches.routes.js';
import { webhookRoutes } from './modules/webhooks/webhooks.routes.js';
import { webhookLogRoutes } from './modules/webhooks/log.routes.js';
import { emailRoutes } from './modules/emails/emails.routes.js';
import { notificationRoutes } from './modules/notifications/notifications.routes.js';
import { tokenRoutes } from './modules/notifications/tokens.routes.js';
import { streamRoutes } from './modules/notifications/stream.routes.js';
import { templateRoutes } from './modules/templates/templates.routes.js';
import { fileRoutes } from './files/files.routes.js';
import { instanceRoutes } from './modules/templates/instances.routes.js';
import { printCampaignRoutes } from './modules/print-campaigns/print-campaigns.routes.js';
import { mailTrackingRoutes } from './mail/tracking.routes.js';
import { extmailRoutes } from './modules/extmail/extmail.routes.js';
import { triggerRoutes } from './modules/triggers/triggers.routes.js';
import { mailListOperatorAction, mailShowOperatorAction } from './mail/mail.cli.js';
import { brandTriggerRoutes } from './modules/triggers/brand-triggers.routes.js';
import { publicPagesRoutes } from './modules/public-pages/public-pages.routes.js';
import { unsubscribePageRoutes } from './modules/public-pages/unsubscribe-page.routes.js';

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
  publicPagesRoutes,
  unsubscribePageRoutes,
];

/**
 * What an operator command may ask a running embedded server to do (platform/operator-channel.ts): work that
 * must happen in the process holding DATA_DIR to act live. Each module adds its own.
 */
export const operatorActions: OperatorActions = {
  notify: notifyOperatorAction,
  'client.create': clientCreateOperatorAction,
  'client.list': clientListOperatorAction,
  'client.scopes': clientScopesOperatorAction,
  'keys.rotate': keysRotateOperatorAction,
  'mail.list': mailListOperatorAction,
  'mail.show': mailShowOperatorAction,
};
