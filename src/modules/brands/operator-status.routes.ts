// GET /admin/status: `gable doctor`'s rows for the operators of this server — the Admins of a root brand — so a
// hosted server's health can be read without a shell on it. Each call reaches the parts afresh (the relay, the
// bucket, the browser); no row carries a secret.
import { Type } from '@sinclair/typebox';
import { errors } from '../../errors.js';
import { userIdOf } from '../auth/index.js';
import type { FeatureRoutes } from '../../platform/feature.js';
import { declareRouteScopes } from '../../platform/api-scopes.js';
import { featureStatus } from '../../platform/feature-status.js';
import { AUTHENTICATED_ERRORS, Envelope, errorResponses, ok } from '../../platform/schemas.js';
import { isRootBrandAdmin } from './brands.repository.js';

const FeatureStatusRecord = Type.Object(
  {
    feature: Type.String({ description: 'database, mail, file store, print rendering, push, Microsoft 365, …' }),
    state: Type.Union([Type.Literal('ready'), Type.Literal('off'), Type.Literal('broken')]),
    detail: Type.String({
      description: 'What was found; for off and broken, the variable to set or the command to run',
    }),
  },
  { additionalProperties: false },
);

export const operatorStatusRoutes: FeatureRoutes = async (app, { deps }) => {
  declareRouteScopes(app, 'full');
  app.get(
    '/admin/status',
    {
      schema: {
        tags: ['Operations'],
        summary: 'Each feature of this server: ready, off or broken',
        description:
          'The rows of `gable doctor`, for an `Admin` of a root brand (a brand without a parent); anyone else gets 403. ' +
          'The database, the SMTP relay, the file store and the browser are reached on each call, each within 8 s.',
        response: { 200: Envelope(Type.Array(FeatureStatusRecord)), ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => {
      if (!(await isRootBrandAdmin(deps.db, userIdOf(request))))
        throw errors.forbidden('Only an Admin of a root brand may read the server status');
      return ok(await featureStatus({ config: deps.config, db: deps.db, files: deps.files, renderer: deps.renderer }));
    },
  );
};
