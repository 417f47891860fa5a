// SQL of importing contacts from elsewhere (a linked mailbox's sync, modules/extmail/contacts-import.ts): finding
// the brand's contacts an imported one matches. The contacts' own writes stay in contacts.repository.ts.
import { sql, type Kysely } from 'kysely';
import { narrowed } from '../../db/narrow.js';
import type { DB } from '../../db/types.js';
import { CONTACT_COLUMNS, type ContactRow } from './contacts.repository.js';

/**
 * The brand's live contacts that share an email key with `keys`, with their keys, newest first, locked for the
 * updates the import makes to them.
 */
export async function lockLiveContactsByEmailKeys(
  db: Kysely<DB>,
  brand: string,
  keys: string[],
): Promise<(ContactRow & { email_keys: string[] })[]> {
  return narrowed<(ContactRow & { email_keys: string[] })[]>(
    await db
      .selectFrom('contacts')
      .select([...CONTACT_COLUMNS, 'email_keys'])
      .where('brand', '=', brand)
      .where('deleted_at', 'is', null)
      .where(sql<boolean>`email_keys && ${keys}::text[]`)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .forUpdate()
      .execute(),
  );
}
