// Who may call a route (its `config.auth`), read by the authentication hook (modules/auth/authenticate.ts) and by
// the OpenAPI document (openapi.ts), which declares each route's security from it.

/** 'optional': a token is checked when one is sent; without one the route runs with no actor (it decides). */
export type AuthRequirement = 'user' | 'client' | 'none' | 'optional';
