// The public face of the users module (issue 29, docs/architecture.md "Layers"): what other modules may import.
// So far the query functions they read and write with; never a table. Other modules import this file, not the
// module's repository, so the repository can change behind it.
export {
  findLiveUserByRef,
  findLiveUserId,
  findLiveUserTimezone,
  findPageUser,
  lockUserEmailQuota,
  userRowQuery,
  type UserRow,
} from './users.repository.js';
