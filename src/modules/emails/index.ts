// The public face of the emails module (issue 29, docs/architecture.md "Layers"): what other modules may import, the
// services, query functions and types they use; never a repository or a table as such. Other modules import this
// file (and the record shapes of the module's *.schemas.ts), not its other files, which can change behind it.
export { addContentProblems, throwIfProblems } from './emails.input.js';
export { presentCampaigns } from './emails.presenter.js';
export { campaignsByIds, findCampaign, markTemplate, softDeleteCampaign } from './emails.repository.js';
export { scheduleCopyIn, scheduleForContactsIn } from './emails.service.js';
