// Route options and request fields that authentication (authenticate.ts) adds to Fastify.
import 'fastify';
import type { Actor, BearerRead } from './authenticate.js';
import type { BearerRow } from './tokens.repository.js';
import type { UserRow } from '../users/index.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** 'exempt' lets a token family that has not passed MFA call the route (only MFA validation itself). */
    mfa?: 'exempt';
    /** Read the caller's user record row with the bearer token, in the same query (request.userRow). */
    withUserRow?: boolean;
    /** Read the route's own record with the bearer token, in the same query (request.bearerRead; authenticate.ts). */
    bearerRead?: BearerRead;
  }

  interface FastifyRequest {
    actor: Actor | null;
    /** The caller's user row, on routes with `config.withUserRow` (null for a client token). */
    userRow: UserRow | null;
    /** The bearer row with the route's columns, on routes with `config.bearerRead`. */
    bearerRead: BearerRow | null;
  }
}
