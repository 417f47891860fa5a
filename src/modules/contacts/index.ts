// The public face of the contacts module (issue 29, docs/architecture.md "Layers"): what other modules may import.
// So far the query functions they read and write with; never a table. Other modules import this file, not the
// module's repository, so the repository can change behind it.
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
export { lockLiveContactsByEmailKeys } from './contacts-import.repository.js';
