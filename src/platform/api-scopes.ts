// The scopes of Gable's access tokens (decisions §22, docs/oauth.md "Scopes"). Every authenticated route declares
// the one it needs in `config.scope`; the authentication hook (modules/auth/authenticate.ts) refuses a token whose
// login was not granted it, and the OpenAPI document lists it on the operation (openapi.ts).
import type { FastifyInstance } from 'fastify';

/** What a consent page says each scope lets the application do, in the user's words. */
export const SCOPE_DESCRIPTIONS = {
  full: 'Everything you can do yourself, in the brand you choose',
  account: 'Read and change your account: profile, password, two-step sign-in, notifications, linked mailboxes',
  'brands:read': 'See your brands, their offices and teams, and who works there',
  'brands:admin': 'Change brand settings and reset a colleague’s two-step sign-in (brand admins only)',
  'contacts:read': 'See your contacts, their timeline, leads and showings',
  'contacts:write': 'Add, change and delete contacts, timeline entries, leads and showings',
  'deals:read': 'See your deals',
  'deals:write': 'Add, change and delete deals and their roles',
  'listings:read': 'Search listings and places',
  'listings:write': 'Publish listings for your brand',
  marketing: 'Send and schedule email campaigns, triggers, saved-search alerts, templates and print campaigns',
  webhooks: 'Manage your brand’s webhooks, which send its events to another address',
  openid: 'Sign you in to the application with your account here',
  profile: 'See your name',
  email: 'See your email address',
  phone: 'See your phone number',
  offline_access: 'Stay connected when you are away',
} as const;

export type Scope = keyof typeof SCOPE_DESCRIPTIONS;

/** Identity scopes (OpenID Connect Core §5.4, §11): what the id_token and userinfo tell, never an API route. */
export const IDENTITY_SCOPES: readonly Scope[] = ['openid', 'profile', 'email', 'phone', 'offline_access'];

/** The scopes of API routes; `full` holds all of them (and no identity scope). */
export const API_SCOPES = (Object.keys(SCOPE_DESCRIPTIONS) as Scope[]).filter(
  (scope) => !IDENTITY_SCOPES.includes(scope),
);

export const ALL_SCOPES = Object.keys(SCOPE_DESCRIPTIONS) as Scope[];

/**
 * A route's `config.scope`: the scope a token needs to call it, or 'any' for the few routes every signed-in token
 * may call whatever it was granted (MFA validation of its own login; userinfo, which checks `openid` itself).
 * Public routes (`auth: 'none'`) declare none.
 */
export type RouteScope = Scope | 'any';

export function isScope(word: string): word is Scope {
  return Object.hasOwn(SCOPE_DESCRIPTIONS, word);
}

/** The words of a space-separated scope (RFC 6749 §3.3); none for null. */
export function scopeWords(scope: string | null | undefined): Set<string> {
  return new Set(scope ? scope.split(' ').filter(Boolean) : []);
}

/**
 * Whether a login's granted scope lets it call a route that needs `needed`. A login stored before scopes existed
 * (null) has `full`. `full` holds every API scope; a `:write` scope holds its `:read`.
 */
export function scopeAllows(granted: string | null, needed: RouteScope): boolean {
  if (needed === 'any') return true;
  const words = granted === null ? new Set(['full']) : scopeWords(granted);
  if (words.has(needed)) return true;
  if (words.has('full') && API_SCOPES.includes(needed)) return true;
  return needed.endsWith(':read') && words.has(needed.replace(/:read$/, ':write'));
}

const READ_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

/**
 * The scopes of a route plugin's routes, declared once at its top: `read` for GET (and HEAD), `write` for every
 * other method. A route that needs another one says so in its own `config.scope` (a search sent as POST reads);
 * public routes (`auth: 'none'`) get none. Encapsulated: it marks the routes of the plugin that calls it only.
 */
export function declareRouteScopes(
  app: FastifyInstance,
  scopes: RouteScope | { read: RouteScope; write: RouteScope },
): void {
  const { read, write } = typeof scopes === 'string' ? { read: scopes, write: scopes } : scopes;
  app.addHook('onRoute', (route) => {
    if (route.config?.auth === 'none' || route.config?.scope !== undefined) return;
    const reads = [route.method].flat().every((method) => READ_METHODS.has(method));
    route.config = { ...route.config, scope: reads ? read : write };
  });
}
