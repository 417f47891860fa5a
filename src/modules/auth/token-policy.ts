// Lifetimes and limits of the OAuth 2 server (spec §8, decisions §3).
export const ACCESS_TOKEN_SECONDS = 2678400; // 31 days, the `expires_in` of every published example
export const FAMILY_LIFETIME_SECONDS = 365 * 24 * 3600; // absolute lifetime of a login's token family
/**
 * A rotated refresh token presented again within this, by its client, while the pair its rotation produced has
 * never been used, is a client retrying after a lost response (decisions §3; Auth0's and Hydra's "reuse
 * interval"): it gets a fresh pair, once. Any other reuse revokes the whole family.
 */
export const REFRESH_REUSE_WINDOW_SECONDS = 300;
export const AUTHORIZATION_CODE_SECONDS = 600;

// OpenID Connect (docs/openid-connect.md).
/** An id_token lives an hour: it proves a sign-in to the client once; the access token is what stays in use. */
export const ID_TOKEN_SECONDS = 3600;
/**
 * A rotated-in signing key is published in the JWKS at once but signs only this long after: every relying party
 * that caches the JWKS (10 minutes by our Cache-Control, as jose's default) has fetched it before the first
 * id_token it signed arrives.
 */
export const KEY_ACTIVATION_SECONDS = 3600;
/** A replaced key stays in the JWKS until the last id_token it signed has expired, plus this much clock skew. */
export const KEY_RETENTION_SKEW_SECONDS = 300;
/** The Cache-Control max-age of GET /oauth2/jwks. */
export const JWKS_MAX_AGE_SECONDS = 600;
/** Per process, the signing keys are read again at most this often (a rotation elsewhere is seen within it). */
export const SIGNING_KEY_CACHE_SECONDS = 60;
