// The route plugins of every feature module, registered by app.ts in this order.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps.js';

export type FeatureRoutes = FastifyPluginAsyncTypebox<{ deps: Deps }>;

export const featureRoutes: FeatureRoutes[] = [];
