// The public face of the contacts module (issue 29, docs/architecture.md "Layers"): what other modules may import, the
// services, query functions and types they use; never a repository or a table as such. Other modules import this
// file (and the record shapes of the module's *.schemas.ts), not its other files, which can change behind it.
export { lockLiveContactsByEmailKeys } from './contacts-import.repository.js';
export {
  applyContactInput,
  EMAIL,
  emailKey,
  EMPTY_CONTACT,
  isCleanText,
  normalizeDate,
  normalizePhone,
  type ContactFields,
} from './contacts.input.js';
export { presentContacts } from './contacts.presenter.js';
export {
  CONTACT_COLUMNS,
  existingContactIds,
  fieldsOf,
  findContact,
  findContactsForUpdate,
  findLiveContacts,
  findMailability,
  softDeleteContacts,
  updateContact,
  type ContactRow,
} from './contacts.repository.js';
export {
  contactEvents,
  getContact,
  insertContactsIn,
  requireReachableContacts,
  setHomeAnniversaryIn,
  unsubscribeContactsIn,
} from './contacts.service.js';
export { captureFromChannel, defaultLeadChannel, LEAD_CAPTURE_LIMITS } from './leads.service.js';
export { insertChannelOnce as insertLeadChannelOnce } from './leads.repository.js';
export { recordActivityIn } from './timeline.service.js';
