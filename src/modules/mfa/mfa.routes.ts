// /users/self/mfa: TOTP set-up, verification, per-login validation and removal. Wiring only.
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { actorOf, userIdOf } from '../auth/index.js';
import { AUTHENTICATED_ERRORS, Envelope, errorResponses, ok } from '../../platform/schemas.js';
import type { FeatureRoutes } from '../../platform/feature.js';
import { declareRouteScopes } from '../../platform/api-scopes.js';
import { UserRecord } from '../users/users.schemas.js';
import { adminResetMfa } from './mfa-reset.service.js';
import { MemberMfaParams, MfaCodeBody, TotpCodeBody } from './mfa.schemas.js';
import {
  disableMfa,
  regenerateRecoveryCodes,
  setupMfa,
  validateMfa,
  verifyMfa,
  type MfaCaller,
} from './mfa.service.js';

const TAGS = ['MFA'];
const MFA_ERRORS = errorResponses(...AUTHENTICATED_ERRORS, 409);
/** Routes that check a code: wrong codes count against the user's and the IP's attempt budgets (429). */
const CODE_ERRORS = errorResponses(...AUTHENTICATED_ERRORS, 409, 429);

function callerOf(request: FastifyRequest): MfaCaller {
  const actor = actorOf(request);
  return { userId: userIdOf(request), family: actor.family, boundBrand: actor.boundBrand, ip: request.ip };
}

export const mfaRoutes: FeatureRoutes = async (app, { deps }) => {
  declareRouteScopes(app, 'account');
  app.post(
    '/users/self/mfa/setup',
    {
      schema: {
        tags: TAGS,
        summary: 'Set up TOTP multi-factor authentication',
        description:
          'Returns the user with `mfa_url` (otpauth:// URI) and `mfa_qr_code` (PNG data URI); MFA stays disabled until verified. 409 when already enabled.',
        response: { 200: Envelope(UserRecord), ...MFA_ERRORS },
      },
    },
    async (request) => ok(await setupMfa(deps, callerOf(request))),
  );

  app.post(
    '/users/self/mfa/verify',
    {
      schema: {
        tags: TAGS,
        summary: 'Enable MFA with a first authenticator code',
        description:
          'Enables MFA and marks the current login (token family) validated. The response carries `mfa_recovery_codes`: ten single-use codes, shown this once. A wrong or reused code answers 400 with attributes.token.',
        body: TotpCodeBody,
        response: { 200: Envelope(UserRecord), ...CODE_ERRORS },
      },
    },
    async (request) => ok(await verifyMfa(deps, callerOf(request), request.body.token)),
  );

  app.post(
    '/users/self/mfa/validate',
    {
      // The one route an unvalidated login may call: it is how the login becomes validated, whatever its scope.
      config: { mfa: 'exempt', scope: 'any' },
      schema: {
        tags: TAGS,
        summary: 'Validate this login with an authenticator code',
        description:
          'Needed once per login (token family) when MFA is enabled; until then every other request answers 401 MFARequired. An unused recovery code is accepted instead of an authenticator code, and is burned.',
        body: MfaCodeBody,
        response: { 204: Type.Null({ description: 'Login validated' }), ...CODE_ERRORS },
      },
    },
    async (request, reply) => {
      await validateMfa(deps, callerOf(request), request.body.token);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/users/self/mfa',
    {
      schema: {
        tags: TAGS,
        summary: 'Remove MFA',
        description: 'Needs a current authenticator code or an unused recovery code; the recovery codes go too.',
        body: MfaCodeBody,
        response: { 204: Type.Null({ description: 'MFA removed' }), ...CODE_ERRORS },
      },
    },
    async (request, reply) => {
      await disableMfa(deps, callerOf(request), request.body.token);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/users/self/mfa/recovery-codes',
    {
      schema: {
        tags: TAGS,
        summary: 'Replace the MFA recovery codes',
        description:
          'Needs a current authenticator code (a recovery code is refused). Every earlier recovery code stops working; the response carries ten new ones in `mfa_recovery_codes`, shown this once. 409 when MFA is not enabled.',
        body: TotpCodeBody,
        response: { 200: Envelope(UserRecord), ...CODE_ERRORS },
      },
    },
    async (request) => ok(await regenerateRecoveryCodes(deps, callerOf(request), request.body.token)),
  );

  app.delete(
    '/brands/:brand/users/:user/mfa',
    {
      config: { scope: 'brands:admin' },
      schema: {
        tags: TAGS,
        summary: "Reset a member's MFA (Admin)",
        description:
          "For a member who lost the authenticator and the recovery codes: clears the user's TOTP secret and recovery codes, so they sign in with the password alone and may set MFA up again, and revokes every login (token family) of the user, whose authenticator may be in other hands. Admin of the brand (or an ancestor); the user must be a member of the brand or a brand below it (else 404). Recorded as a `Security`/`UserMfaReset` event.",
        params: MemberMfaParams,
        response: { 204: Type.Null({ description: 'MFA reset' }), ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request, reply) => {
      await adminResetMfa(deps, actorOf(request), request.params.brand, request.params.user);
      return reply.code(204).send(null);
    },
  );
};
