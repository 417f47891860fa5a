// One delta page of a mailbox's contacts into the brand's contacts, in one transaction with the cursor that
// follows it, so a sync stopped between pages resumes at the next page and a page applied twice changes nothing.
// A remote contact is linked (extmail_contacts) to the contact it created or matched: updates go there, a removal
// soft-deletes it. An unlinked remote contact is matched by email with the brand's live contacts (the oldest
// first), or with a contact created earlier in the same page, before a new one is made: re-syncs never duplicate.
import type { Transaction } from 'kysely';
import type { Deps } from '../../platform/deps.js';
import type { DB } from '../../db/types.js';
import { recordEvents } from '../../events/outbox.js';
import { emailKey } from '../../lib/contact-values.js';
import { EMPTY_CONTACT, type ContactFields, contactEvents, insertContactsIn } from '../contacts/index.js';
import * as contacts from '../contacts/index.js';
import { graphEmails, mapGraphContact, sameFields } from './contact-mapping.js';
import {
  deleteContactLinks,
  findContactLinks,
  lockSyncableCredential,
  storeContactsCursor,
  upsertContactLinks,
  type CredentialRow,
} from './extmail.repository.js';
import type { DeltaPage } from './provider.js';

const REASON = 'extmail_sync';

export interface PageResult {
  created: number;
  updated: number;
  removed: number;
}

/** Applies the page and stores the cursor; null when the credential was deleted or revoked meanwhile. */
export async function applyContactsPage(deps: Deps, credentialId: string, page: DeltaPage): Promise<PageResult | null> {
  return deps.db.transaction().execute(async (trx) => {
    const credential = await lockSyncableCredential(trx, credentialId);
    if (!credential) return null;
    const now = deps.clock.now();
    const removed = await applyRemovals(trx, deps, credential, page.removed);
    const { created, updated } = await applyChanges(trx, deps, credential, page.changed);
    await storeContactsCursor(trx, credentialId, page.nextLink, page.deltaLink, now);
    return { created, updated, removed };
  });
}

async function linksOf(trx: Transaction<DB>, credential: string, remoteIds: string[]): Promise<Map<string, string>> {
  if (remoteIds.length === 0) return new Map();
  const rows = await findContactLinks(trx, credential, remoteIds);
  return new Map(rows.map((r) => [r.remote_id, r.contact]));
}

async function applyRemovals(
  trx: Transaction<DB>,
  deps: Deps,
  credential: CredentialRow,
  remoteIds: string[],
): Promise<number> {
  const links = await linksOf(trx, credential.id, remoteIds);
  if (links.size === 0) return 0;
  const deleted = await contacts.softDeleteContacts(trx, [...new Set(links.values())], REASON, deps.clock.now());
  await recordEvents(trx, contactEvents(deleted, 'delete'));
  await deps.moduleHooks.replanContactTriggers(
    trx,
    deps,
    deleted.map((r) => r.id),
  );
  await deleteContactLinks(trx, credential.id, [...links.keys()]);
  return deleted.length;
}

interface Target {
  /** An existing contact (null for one this page creates). */
  row: contacts.ContactRow | null;
  fields: ContactFields;
  remoteIds: string[];
}

async function applyChanges(
  trx: Transaction<DB>,
  deps: Deps,
  credential: CredentialRow,
  changed: Record<string, unknown>[],
): Promise<{ created: number; updated: number }> {
  if (changed.length === 0) return { created: 0, updated: 0 };
  const links = await linksOf(
    trx,
    credential.id,
    changed.map((c) => c.id as string),
  );
  const linkedRows = new Map(
    (await contacts.findContactsForUpdate(trx, [...new Set(links.values())])).map((r) => [r.id, r]),
  );
  const unlinked = changed.filter((c) => !links.has(c.id as string));
  const keys = [...new Set(unlinked.flatMap((c) => graphEmails(c).map(emailKey)))];
  const byKey = new Map<string, Target>();
  if (keys.length > 0) {
    const matches = await contacts.lockLiveContactsByEmailKeys(trx, credential.brand, keys);
    // Oldest last, so it wins each key it shares with a newer contact.
    for (const { email_keys, ...row } of matches) {
      const target: Target = { row, fields: contacts.fieldsOf(row), remoteIds: [] };
      for (const key of email_keys) byKey.set(key, target);
    }
  }
  const targets = new Map<string, Target>();
  const fresh: Target[] = [];
  for (const remote of changed) {
    const remoteId = remote.id as string;
    const linked = links.get(remoteId);
    let target: Target | undefined;
    if (linked !== undefined) {
      const row = linkedRows.get(linked);
      // The agent deleted the imported contact: the mailbox does not bring it back.
      if (!row) continue;
      target = targets.get(row.id) ?? { row, fields: contacts.fieldsOf(row), remoteIds: [] };
    } else {
      target = graphEmails(remote)
        .map((e) => byKey.get(emailKey(e)))
        .find((t) => t !== undefined);
      if (target?.row) target = targets.get(target.row.id) ?? target;
    }
    if (!target) {
      target = { row: null, fields: EMPTY_CONTACT, remoteIds: [] };
      fresh.push(target);
    }
    target.fields = mapGraphContact(
      remote,
      target.row === null && target.remoteIds.length === 0 ? null : target.fields,
    );
    target.remoteIds.push(remoteId);
    if (target.row) targets.set(target.row.id, target);
    for (const email of target.fields.emails) byKey.set(emailKey(email), target);
  }
  const now = deps.clock.now();
  const updated: contacts.ContactRow[] = [];
  const linkRows: { credential: string; remote_id: string; contact: string }[] = [];
  for (const target of targets.values()) {
    const row = target.row!;
    if (!sameFields(contacts.fieldsOf(row), target.fields))
      updated.push(await contacts.updateContact(trx, row.id, target.fields, REASON, now));
    for (const remoteId of target.remoteIds)
      linkRows.push({ credential: credential.id, remote_id: remoteId, contact: row.id });
  }
  await recordEvents(trx, contactEvents(updated, 'update'));
  await deps.moduleHooks.replanContactTriggers(
    trx,
    deps,
    updated.map((r) => r.id),
  );
  const inserted =
    fresh.length > 0
      ? await insertContactsIn(
          trx,
          deps,
          credential.brand,
          credential.user,
          fresh.map((t) => t.fields),
          REASON,
        )
      : [];
  inserted.forEach((row, i) => {
    for (const remoteId of fresh[i]!.remoteIds)
      linkRows.push({ credential: credential.id, remote_id: remoteId, contact: row.id });
  });
  await upsertContactLinks(trx, linkRows);
  return { created: inserted.length, updated: updated.length };
}
