// Bearer authentication, the MFA gate and the scope check, for every route. Deny by default: a route is public only
// when it says `config: { auth: 'none' }`; `auth: 'client'` also admits client-credentials tokens (no user). A token
// calls a route only when its login was granted the route's `config.scope` (platform/api-scopes.ts); a route that
// declares none needs `full`.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthRequirement } from '../../platform/auth-requirement.js';
import type { Deps } from '../../platform/deps.js';
import { AppError, errors } from '../../errors.js';
import { scopeAllows, type RouteScope } from '../../platform/api-scopes.js';
import { hashToken } from '../../lib/crypto.js';
import {
  findBearer,
  findBearerWithUserRow,
  markAccessTokenUsed,
  userRowOf,
  type BearerRow,
  type BearerWithUserRow,
} from './tokens.repository.js';
import type { ClientKind } from './auth.columns.js';

/** Who is calling: a user through some client, or a first-party client acting for itself. */
export interface Actor {
  /** null for a client-credentials token. */
  readonly userId: string | null;
  /** oauth_clients.id (uuid) of the client the token was issued to. */
  readonly client: string;
  /** The public client_id string, for logs and metrics. */
  readonly clientId: string;
  readonly clientKind: ClientKind;
  readonly family: string;
  /** A partner token acts only in this brand and its children (null = not bound). */
  readonly boundBrand: string | null;
  readonly mfaValidated: boolean;
  readonly activeBrand: string | null;
}

/**
 * A route's own read joined to the bearer lookup, in ONE round trip (`config.bearerRead`): it answers the bearer
 * row (as findBearer does) with the route's columns beside it, which the handler finds in `request.bearerRead`.
 * The token is checked exactly as without it; the route's columns are only used once it passed.
 */
export type BearerRead = (tokenHash: Buffer, request: FastifyRequest) => Promise<BearerRow | undefined>;

export type { AuthRequirement };

const BEARER = /^Bearer\s+([A-Za-z0-9\-._~+/]+=*)\s*$/i;

export function registerAuth(app: FastifyInstance, deps: Deps): void {
  app.decorateRequest('actor', null);
  app.decorateRequest('userRow', null);
  app.decorateRequest('bearerRead', null);
  // A callback hook and promise chains, not async functions: every request but a few public ones comes through
  // here, and each promise costs it hook calls (the work context, lib/work-context.ts): three promises in all.
  app.addHook('onRequest', (request, _reply, done) => {
    const config = request.routeOptions.config;
    const requirement: AuthRequirement = config.auth ?? 'user';
    if (requirement === 'none' || !request.routeOptions.url) return done(); // public route, or no route (404 handler)
    if (request.method === 'OPTIONS') return done(); // CORS preflights carry no token (modules/brands/cors.ts answers them)
    if (requirement === 'optional' && request.headers.authorization === undefined) return done();
    let checked: Promise<Actor>;
    try {
      checked = authenticate(deps, request);
    } catch (error) {
      return done(error as Error);
    }
    checked.then((actor) => {
      if (requirement === 'user' && actor.userId === null)
        return done(errors.forbidden('This endpoint needs a user token, not a client token'));
      request.actor = actor;
      done();
    }, done);
  });
}

/** The caller's actor; throws (synchronously) when the Authorization header is missing or malformed. */
function authenticate(deps: Deps, request: FastifyRequest): Promise<Actor> {
  const header = request.headers.authorization;
  if (!header) throw errors.unauthorized('Authentication is required: send Authorization: Bearer <access token>');
  const token = BEARER.exec(header)?.[1];
  if (!token) throw errors.unauthorized('The Authorization header must be "Bearer <access token>"');
  const tokenHash = hashToken(token);
  return readBearer(deps, request, tokenHash).then((row) => admit(deps, request, tokenHash, row));
}

/** The bearer row, with the route's own read (`bearerRead`) or the caller's user row (`withUserRow`) when it asks. */
function readBearer(deps: Deps, request: FastifyRequest, tokenHash: Buffer): Promise<BearerRow | undefined> {
  const { bearerRead, withUserRow } = request.routeOptions.config;
  if (bearerRead) return bearerRead(tokenHash, request);
  if (withUserRow) return findBearerWithUserRow(deps.database, tokenHash);
  return findBearer(deps.database, tokenHash);
}

function admit(
  deps: Deps,
  request: FastifyRequest,
  tokenHash: Buffer,
  row: BearerRow | undefined,
): Actor | Promise<Actor> {
  const { bearerRead, withUserRow } = request.routeOptions.config;
  if (bearerRead) request.bearerRead = row ?? null;
  else if (withUserRow) request.userRow = row ? userRowOf(row as BearerWithUserRow) : null;
  if (!row || row.revoked_at !== null || row.client_deleted_at !== null)
    throw errors.unauthorized('The access token is invalid or has been revoked');
  if (row.user !== null && row.user_deleted_at !== null)
    throw errors.unauthorized('The access token is invalid or has been revoked');
  const now = deps.clock.now();
  if (row.token_expires_at <= now || row.family_expires_at <= now) throw errors.tokenExpired();
  // The first use proves the client received the pair: a replay of the refresh token that produced it is then theft
  // (modules/auth/refresh-token.grant.ts). One write per token, on its first request only.
  if (row.used_at === null) return markAccessTokenUsed(deps.db, tokenHash, now).then(() => allowed(request, row));
  return allowed(request, row);
}

/** The actor of a live token, once the MFA gate and the route's scope let it through. */
function allowed(request: FastifyRequest, row: BearerRow): Actor {
  const actor: Actor = {
    userId: row.user,
    client: row.client,
    clientId: row.client_id,
    clientKind: row.client_kind,
    family: row.family,
    boundBrand: row.bound_brand,
    mfaValidated: row.mfa_validated,
    activeBrand: row.active_brand,
  };
  // MFA gate (spec §3, decisions §4): an unvalidated family may only validate itself.
  if (row.mfa_enabled && !row.mfa_validated && request.routeOptions.config.mfa !== 'exempt') throw errors.mfaRequired();
  const needed = request.routeOptions.config.scope ?? 'full';
  if (!scopeAllows(row.scope, needed)) throw insufficientScope(needed);
  return actor;
}

/** RFC 6750 §3.1: 403 with a challenge naming the scope the route needs. */
function insufficientScope(needed: RouteScope): AppError {
  return new AppError(
    'AccessForbidden',
    `This token was not granted the ${needed} scope this endpoint needs (docs/oauth.md, Scopes)`,
    undefined,
    { 'www-authenticate': `Bearer error="insufficient_scope", scope="${needed}"` },
    'insufficient_scope',
  );
}

/** The caller of an authenticated route (the hook guarantees it is set). */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw errors.unauthorized();
  return request.actor;
}

/** The calling user's id; routes with `auth: 'user'` always have one. */
export function userIdOf(request: FastifyRequest): string {
  const userId = actorOf(request).userId;
  if (!userId) throw errors.forbidden('This endpoint needs a user token, not a client token');
  return userId;
}
