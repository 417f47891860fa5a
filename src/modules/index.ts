// The route plugins of every feature module, registered by app.ts in this order.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps.js';
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

export type FeatureRoutes = FastifyPluginAsyncTypebox<{ deps: Deps }>;

export const featureRoutes: FeatureRoutes[] = [
  webRoutes,
  oauthRoutes,
  mfaRoutes,
  usersRoutes,
  brandRoutes,
  demoLogoRoutes,
  boundaryRoutes,
  listingSearchRoutes,
  listingRoutes,
  contactRoutes,
  timelineRoutes,
  leadRoutes,
  dealRoutes,
  showingRoutes,
];
