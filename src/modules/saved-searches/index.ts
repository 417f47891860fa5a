// The public face of the saved-searches module (issue 29, docs/architecture.md "Layers"): what other modules may import, the
// services, query functions and types they use; never a repository or a table as such. Other modules import this
// file (and the record shapes of the module's *.schemas.ts), not its other files, which can change behind it.
export { MATCH_BATCH, matchEventsTask } from './matching.tasks.js';
export { unsubscribeContactLinks } from './delivery.repository.js';
export {
  alertPreferences,
  alertResults,
  findAlertSearch,
  setAlertPreferences,
  type AlertPair,
  type AlertPreference,
  type AlertResults,
  type AlertSearch,
} from './alert-pages.service.js';
export { FREQUENCIES, type Frequency } from './saved-searches.schemas.js';
export type { ListingCard } from './delivery.email.js';
