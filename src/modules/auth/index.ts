// The public face of the auth module (issue 29, docs/architecture.md "Layers"): what other modules may import, the
// services, query functions and types they use; never a repository or a table as such. Other modules import this
// file (and the record shapes of the module's *.schemas.ts), not its other files, which can change behind it.
export { type ClientKind } from './auth.columns.js';
export { actorOf, userIdOf, type Actor, type BearerRead } from './authenticate.js';
export { createAuthorizationCode, issueImplicitToken } from './authorization-codes.js';
export { findAuthorizingClient, findLiveClientById, findLogoutClient } from './clients.repository.js';
export { clientSecretMatches, createOAuthClient, GRANTS_BY_KIND, hashClientSecret } from './clients.service.js';
export { issueImplicitIdToken } from './id-token.js';
export { readIdTokenHint, type IdTokenHint } from './id-token-hint.js';
export { findLiveUserByEmail } from './login.repository.js';
export { grantScope } from './scope-grant.js';
export { includesOpenid, PROMPT_VALUES } from './openid.claims.js';
export { bearerQuery, markFamilyMfaValidated, type BearerRow } from './tokens.repository.js';
export {
  deleteExpiredSessions,
  findLiveSession,
  insertSession,
  signOutEverywhere,
  takePending,
  updateSession,
  type SessionChanges,
  type WebSessionRow,
} from './web-sessions.repository.js';
