// Lifetimes and limits of the OAuth 2 server (spec §8, decisions §3).
export const ACCESS_TOKEN_SECONDS = 2678400; // 31 days, the `expires_in` of every published example
export const FAMILY_LIFETIME_SECONDS = 365 * 24 * 3600; // absolute lifetime of a login's token family
export const REFRESH_REUSE_GRACE_SECONDS = 10; // a rotated refresh token replayed within this is a retry, not theft
export const AUTHORIZATION_CODE_SECONDS = 600;
