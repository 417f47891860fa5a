// The public face of the triggers module (issue 29, docs/architecture.md "Layers"): what other modules may import, the
// services, query functions and types they use; never a repository or a table as such. Other modules import this
// file (and the record shapes of the module's *.schemas.ts), not its other files, which can change behind it.
export { replanTriggersOfContacts, replanTriggersOfUser } from './planner.js';
export { campaignInUse } from './triggers.repository.js';
export { triggersOfContacts } from './triggers.service.js';
