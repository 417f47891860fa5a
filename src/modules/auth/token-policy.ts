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
