// Route options and request fields the platform adds to Fastify.
import 'fastify';
import type { Actor, AuthRequirement, BearerRead } from './auth.js';
import type { BearerRow } from '../modules/auth/tokens.repository.js';
import type { DeprecationNotice } from './deprecation.js';
import type { RateLimitRule } from './rate-limit.js';
import type { UserRow } from '../modules/users/users.repository.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; default 'user'. */
    auth?: AuthRequirement;
    /** 'exempt' lets a token family that has not passed MFA call the route (only MFA validation itself). */
    mfa?: 'exempt';
    /** Answer errors in RFC 6749 form too (`error`, `error_description`). */
    oauthErrors?: boolean;
    deprecated?: DeprecationNotice;
    /** Read the caller's user record row with the bearer token, in the same query (request.userRow). */
    withUserRow?: boolean;
    /** Read the route's own record with the bearer token, in the same query (request.bearerRead; platform/auth.ts). */
    bearerRead?: BearerRead;
    /** 'per-record': the route checks body text for NUL and lone surrogates itself (platform/text-guard.ts). */
    textCheck?: 'per-record';
    /** Path parameters longer than an id (a device token): name → most characters (platform/path-segments.ts). */
    pathParamLimits?: Readonly<Record<string, number>>;
    /** The per-IP limit of public routes (platform/rate-limit.ts). */
    rateLimit?: RateLimitRule;
  }

  interface FastifyRequest {
    actor: Actor | null;
    /** The caller's user row, on routes with `config.withUserRow` (null for a client token). */
    userRow: UserRow | null;
    /** The bearer row with the route's columns, on routes with `config.bearerRead`. */
    bearerRead: BearerRow | null;
  }
}
