// The public face of the auth module (issue 29, docs/architecture.md "Layers"): what other modules may import.
// So far the query functions they read and write with; never a table. Other modules import this file, not the
// module's repository, so the repository can change behind it.
export { bearerQuery, markFamilyMfaValidated, type BearerRow } from './tokens.repository.js';
export { signOutEverywhere } from './web-sessions.repository.js';
export { findAuthorizingClient, findLiveClientById } from './clients.repository.js';
