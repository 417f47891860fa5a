// Route options the platform adds to Fastify. What authentication adds (who may call, the caller, its rows) is the
// auth module's: modules/auth/fastify-auth.d.ts.
import 'fastify';
import type { RouteScope } from './api-scopes.js';
import type { AuthRequirement } from './auth-requirement.js';
import type { DeprecationNotice } from './deprecation.js';
import type { RateLimitRule } from './rate-limit.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; default 'user'. */
    auth?: AuthRequirement;
    /** The scope a token needs to call the route (platform/api-scopes.ts); none on public routes. */
    scope?: RouteScope;
    /** Answer errors in RFC 6749 form too (`error`, `error_description`). */
    oauthErrors?: boolean;
    deprecated?: DeprecationNotice;
    /** 'per-record': the route checks body text for NUL and lone surrogates itself (platform/text-guard.ts). */
    textCheck?: 'per-record';
    /** Path parameters longer than an id (a device token): name → most characters (platform/path-segments.ts). */
    pathParamLimits?: Readonly<Record<string, number>>;
    /** The per-IP limit of public routes (platform/rate-limit.ts). */
    rateLimit?: RateLimitRule;
  }
}
