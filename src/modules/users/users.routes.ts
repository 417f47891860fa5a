// /users/self: the caller's own record, profile, password and active brand. Wiring only.
import { Type } from '@sinclair/typebox';
import { errors } from '../../errors.js';
import { actorOf, userIdOf } from '../auth/index.js';
import { headerBrand, namedBrand } from '../brands/index.js';
import { AUTHENTICATED_ERRORS, Envelope, errorResponses, ok } from '../../platform/schemas.js';
import type { FeatureRoutes } from '../../platform/feature.js';
import { declareRouteScopes } from '../../platform/api-scopes.js';
import { changeActiveBrand, changePassword, updateSelf } from './self.service.js';
import { ChangePasswordBody, UpdateSelfBody, UserRecord } from './users.schemas.js';
import { loadUserRecord, toUserRecord } from './users.service.js';

const TAGS = ['Users'];

export const usersRoutes: FeatureRoutes = async (app, { deps }) => {
  declareRouteScopes(app, 'account');
  // The record's `brand` is the request's brand context. Without X-RECHAT-BRAND it is the bound brand of a
  // partner token, else the active brand (the record computes that fallback in its own query: no extra query).
  const recordBrand = async (request: Parameters<typeof actorOf>[0]) =>
    (await headerBrand(deps, request)) ?? actorOf(request).boundBrand;
  const selfRecord = async (request: Parameters<typeof actorOf>[0]) =>
    ok(await loadUserRecord(deps, userIdOf(request), { brand: await recordBrand(request), row: request.userRow }));

  app.get(
    '/users/self',
    {
      // Who the token's user is: any token may ask (as `/oauth2/userinfo` with `openid`), so a partner granted only
      // `contacts:read` can still show who is signed in.
      config: { withUserRow: true, scope: 'any' },
      schema: {
        tags: TAGS,
        summary: 'The calling user',
        description: '`brand` is the brand context of the request (X-RECHAT-BRAND, else the active brand).',
        response: { 200: Envelope(UserRecord), ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    (request) => {
      // What every client calls first, answered from the row bearer authentication read, with no promise on its
      // way (each costs a request hook calls, lib/work-context.ts); X-RECHAT-BRAND needs an access check first.
      const row = request.userRow;
      if (row && namedBrand(request) === undefined)
        return ok(toUserRecord(row, deps.clock.now(), actorOf(request).boundBrand));
      return selfRecord(request);
    },
  );

  // PUT is what older clients send for the same update (decisions §19): one route table entry, the same schema
  // and rules, not a second implementation.
  app.route({
    method: ['PATCH', 'PUT'],
    url: '/users/self',
    schema: {
      tags: TAGS,
      summary: 'Update your profile',
      description:
        'Only the fields sent change. Unknown fields, and `email`, are ignored. `PUT` is accepted as a synonym of `PATCH` (existing clients send it).',
      body: UpdateSelfBody,
      response: { 200: Envelope(UserRecord), ...errorResponses(...AUTHENTICATED_ERRORS, 413, 415) },
    },
    handler: async (request) => ok(await updateSelf(deps, userIdOf(request), request.body, await recordBrand(request))),
  });

  app.patch(
    '/users/self/password',
    {
      schema: {
        tags: TAGS,
        summary: 'Change your password',
        description:
          'New password at least 8 characters; a wrong old password answers 403. Every other session (token family) of the user is revoked.',
        body: ChangePasswordBody,
        // 429: wrong old passwords count against the account's attempt budget
        response: {
          204: Type.Null({ description: 'Password changed' }),
          ...errorResponses(...AUTHENTICATED_ERRORS, 429),
        },
      },
    },
    async (request, reply) => {
      await changePassword(deps, actorOf(request), request.body);
      return reply.code(204).send(null);
    },
  );

  app.patch(
    '/users/self/active-brand',
    {
      schema: {
        tags: TAGS,
        summary: 'Choose your active brand',
        description: 'The brand comes from the X-RECHAT-BRAND header (required) and must be one you can reach.',
        headers: Type.Object({
          'x-rechat-brand': Type.Optional(Type.String({ format: 'uuid', description: 'Brand uuid' })),
        }),
        response: { 200: Envelope(UserRecord), ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => {
      const brand = await headerBrand(deps, request);
      if (!brand) throw errors.invalidField('X-RECHAT-BRAND', 'is required: send the brand to make active');
      return ok(await changeActiveBrand(deps, userIdOf(request), brand));
    },
  );
};
