// The public face of the users module (issue 29, docs/architecture.md "Layers"): what other modules may import, the
// services, query functions and types they use; never a repository or a table as such. Other modules import this
// file (and the record shapes of the module's *.schemas.ts), not its other files, which can change behind it.
export { AGENT_RECORD_COLUMNS, toAgentRecord, type AgentRow } from './agents.record.js';
export { createAccount } from './users.admin.js';
export {
  findLiveUserByRef,
  findLiveUserId,
  findLiveUserTimezone,
  findPageUser,
  findUserClaims,
  lockUserEmailQuota,
  revokeOtherFamilies,
  userRowQuery,
  type UserRow,
} from './users.repository.js';
export { loadUserRecord, toUserRecord } from './users.service.js';
