// SQL of linked mailboxes (extmail_credentials), consumed link states, and the links of synced remote contacts
// to the contacts they created or matched (extmail_contacts).
import { sql, type Kysely, type Selectable } from 'kysely';
import type { SyncStatus } from './extmail.columns.js';
import { narrowed } from '../../db/narrow.js';
import type { DB, Narrowed } from '../../db/types.js';

/** A credential as read: its scopes and sync status typed (extmail.columns.ts). */
export type CredentialRow = Narrowed<
  Selectable<DB['extmail_credentials']>,
  { scope: string[] | null; scope_summary: string[] | null; sync_status: SyncStatus | null }
>;

/** Marks a state nonce used; false when it already was (a replayed callback). Forgets long-expired nonces. */
export async function consumeStateNonce(db: Kysely<DB>, nonce: string, expiresAt: Date, now: Date): Promise<boolean> {
  const inserted = await db
    .insertInto('extmail_link_states')
    .values({ nonce, expires_at: expiresAt })
    .onConflict((oc) => oc.column('nonce').doNothing())
    .returning('nonce')
    .executeTakeFirst();
  // A nonce past its state's expiry can never be presented again (the state is refused as expired first).
  await db
    .deleteFrom('extmail_link_states')
    .where('expires_at', '<', new Date(now.getTime() - 60_000))
    .execute();
  return inserted !== undefined;
}

/** What linking writes: the credential's own columns, with the scopes as arrays (stored as JSON). */
export type CredentialUpsert = Pick<
  CredentialRow,
  | 'user'
  | 'brand'
  | 'provider'
  | 'remote_id'
  | 'email'
  | 'resource_name'
  | 'display_name'
  | 'first_name'
  | 'last_name'
  | 'photo'
  | 'access_token_sealed'
  | 'refresh_token_sealed'
  | 'access_expires_at'
> & { scope: string[]; scope_summary: string[] };

/** One live credential per (user, brand, provider, remote account): linking again refreshes it and un-revokes it. */
export async function upsertCredential(db: Kysely<DB>, fields: CredentialUpsert, now: Date): Promise<CredentialRow> {
  const values = {
    ...fields,
    scope: JSON.stringify(fields.scope),
    scope_summary: JSON.stringify(fields.scope_summary),
  };
  return narrowed<CredentialRow>(
    await db
      .insertInto('extmail_credentials')
      .values({ ...values, revoked: false, created_at: now, updated_at: now })
      .onConflict((oc) =>
        oc
          .columns(['user', 'brand', 'provider', 'remote_id'])
          .where('deleted_at', 'is', null)
          .doUpdateSet({
            email: values.email,
            resource_name: values.resource_name,
            display_name: values.display_name,
            first_name: values.first_name,
            last_name: values.last_name,
            photo: values.photo,
            scope: values.scope,
            scope_summary: values.scope_summary,
            access_token_sealed: values.access_token_sealed,
            // A relink without a new refresh token keeps the one there is.
            refresh_token_sealed: (eb) =>
              eb.fn.coalesce(eb.val(values.refresh_token_sealed), eb.ref('extmail_credentials.refresh_token_sealed')),
            access_expires_at: values.access_expires_at,
            revoked: false,
            updated_at: now,
          }),
      )
      .returningAll()
      .executeTakeFirstOrThrow(),
  );
}

/** The user's live credentials (of one brand when `brand` is given), oldest first. */
export async function listCredentials(db: Kysely<DB>, user: string, brand: string | null): Promise<CredentialRow[]> {
  let query = db.selectFrom('extmail_credentials').selectAll().where('user', '=', user).where('deleted_at', 'is', null);
  if (brand) query = query.where('brand', '=', brand);
  return narrowed<CredentialRow[]>(await query.orderBy('created_at').orderBy('id').execute());
}

export async function findCredential(
  db: Kysely<DB>,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<CredentialRow | undefined> {
  let query = db.selectFrom('extmail_credentials').selectAll().where('id', '=', id).where('deleted_at', 'is', null);
  if (options.forUpdate) query = query.forUpdate();
  return narrowed<CredentialRow | undefined>(await query.executeTakeFirst());
}

/** Soft delete; the tokens go (a deleted credential can never act again). */
export async function softDeleteCredential(db: Kysely<DB>, id: string, now: Date): Promise<CredentialRow | undefined> {
  return narrowed<CredentialRow | undefined>(
    await db
      .updateTable('extmail_credentials')
      .set({
        deleted_at: now,
        updated_at: now,
        access_token_sealed: null,
        refresh_token_sealed: null,
        access_expires_at: null,
      })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .returningAll()
      .executeTakeFirst(),
  );
}

/** Who owns a credential and whether it was unlinked, deleted or not (a sync request tells "unlinked" apart). */
export async function findCredentialOwner(
  db: Kysely<DB>,
  id: string,
): Promise<{ user: string; deleted_at: Date | null } | undefined> {
  return db.selectFrom('extmail_credentials').select(['user', 'deleted_at']).where('id', '=', id).executeTakeFirst();
}

/** Marks a sync queued (in the transaction that enqueues its run). */
export async function markSyncQueued(db: Kysely<DB>, id: string, now: Date): Promise<CredentialRow> {
  return narrowed<CredentialRow>(
    await db
      .updateTable('extmail_credentials')
      .set({ sync_status: 'queued', sync_queued_at: now, updated_at: now })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow(),
  );
}

/**
 * Takes the sync lease of a live, unrevoked credential: unless another run holds it (running, and started at or
 * after `staleBefore`). Undefined when the lease is not taken.
 */
export async function claimSyncLease(
  db: Kysely<DB>,
  id: string,
  now: Date,
  staleBefore: Date,
): Promise<CredentialRow | undefined> {
  return narrowed<CredentialRow | undefined>(
    await db
      .updateTable('extmail_credentials')
      .set({ sync_status: 'running', sync_started_at: now, sync_error: null })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .where('revoked', '=', false)
      .where((eb) =>
        eb.or([
          eb('sync_status', 'is', null),
          eb('sync_status', '!=', 'running'),
          eb('sync_started_at', '<', staleBefore),
        ]),
      )
      .returningAll()
      .executeTakeFirst(),
  );
}

export async function setSyncError(db: Kysely<DB>, id: string, syncError: string): Promise<void> {
  await db.updateTable('extmail_credentials').set({ sync_error: syncError }).where('id', '=', id).execute();
}

/** Records the outcome of a run. */
export async function finishSync(
  db: Kysely<DB>,
  id: string,
  fields: { sync_status: 'succeeded' | 'failed'; sync_error: string | null; last_synced_at?: Date },
  now: Date,
): Promise<void> {
  await db
    .updateTable('extmail_credentials')
    .set({ ...fields, sync_finished_at: now, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** The mail folders' delta link, for the next run to go on from. */
export async function storeMailFoldersToken(db: Kysely<DB>, id: string, deltaLink: string): Promise<void> {
  await db
    .updateTable('extmail_credentials')
    .set({ cfolders_sync_token: deltaLink })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .execute();
}

/** Marks the credential revoked and its sync failed; false when it already was revoked (tell the user once). */
export async function markCredentialRevoked(db: Kysely<DB>, id: string, now: Date): Promise<boolean> {
  const updated = await db
    .updateTable('extmail_credentials')
    .set({
      revoked: true,
      sync_status: 'failed',
      sync_error: 'revoked: the provider refused the stored grant',
      sync_finished_at: now,
      updated_at: now,
    })
    .where('id', '=', id)
    .where('revoked', '=', false)
    .returning('id')
    .executeTakeFirst();
  return updated !== undefined;
}

/**
 * Live, unrevoked credentials due a sync: finished (or never run) and last synced before `due`, or queued/running
 * but queued before `lost` (their run was lost). Least recently synced first.
 */
export async function findDueSyncs(db: Kysely<DB>, due: Date, lost: Date, limit: number): Promise<{ id: string }[]> {
  return db
    .selectFrom('extmail_credentials')
    .select('id')
    .where('deleted_at', 'is', null)
    .where('revoked', '=', false)
    .where((eb) =>
      eb.or([
        eb.and([
          eb.or([eb('sync_status', 'is', null), eb('sync_status', 'in', ['succeeded', 'failed'])]),
          eb.or([eb('last_synced_at', 'is', null), eb('last_synced_at', '<', due)]),
        ]),
        eb.and([eb('sync_status', 'in', ['queued', 'running']), eb('sync_queued_at', '<', lost)]),
      ]),
    )
    .orderBy('last_synced_at')
    .limit(limit)
    .execute();
}

/** The stored (sealed) refresh token of a live credential: re-read before each refresh, another run may have rotated it. */
export async function findSealedRefreshToken(
  db: Kysely<DB>,
  id: string,
): Promise<{ refresh_token_sealed: string | null } | undefined> {
  return db
    .selectFrom('extmail_credentials')
    .select('refresh_token_sealed')
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** Stores refreshed tokens at once (a rotated refresh token must not be lost); the old refresh token stays when none came. */
export async function storeRefreshedTokens(
  db: Kysely<DB>,
  id: string,
  tokens: { access_token_sealed: string; refresh_token_sealed?: string; access_expires_at: Date },
  now: Date,
): Promise<void> {
  await db
    .updateTable('extmail_credentials')
    .set({ ...tokens, updated_at: now })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .execute();
}

/** The live credential, locked, while it is not revoked: a contacts page is applied under this lock. */
export async function lockSyncableCredential(db: Kysely<DB>, id: string): Promise<CredentialRow | undefined> {
  return narrowed<CredentialRow | undefined>(
    await db
      .selectFrom('extmail_credentials')
      .selectAll()
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .where('revoked', '=', false)
      .forUpdate()
      .executeTakeFirst(),
  );
}

/** The contacts delta cursor after a page (and the delta link, when the page was the last). */
export async function storeContactsCursor(
  db: Kysely<DB>,
  id: string,
  nextLink: string | null,
  deltaLink: string | null,
  now: Date,
): Promise<void> {
  await db
    .updateTable('extmail_credentials')
    .set({
      contacts_sync_cursor: nextLink,
      ...(deltaLink ? { contacts_sync_token: deltaLink } : {}),
      updated_at: now,
    })
    .where('id', '=', id)
    .execute();
}

/** The contacts that remote contacts of a credential are linked to, by remote id. */
export async function findContactLinks(
  db: Kysely<DB>,
  credential: string,
  remoteIds: string[],
): Promise<{ remote_id: string; contact: string }[]> {
  return db
    .selectFrom('extmail_contacts')
    .select(['remote_id', 'contact'])
    .where('credential', '=', credential)
    .where(sql<boolean>`remote_id = any(${remoteIds}::text[])`)
    .execute();
}

export async function deleteContactLinks(db: Kysely<DB>, credential: string, remoteIds: string[]): Promise<void> {
  await db
    .deleteFrom('extmail_contacts')
    .where('credential', '=', credential)
    .where(sql<boolean>`remote_id = any(${remoteIds}::text[])`)
    .execute();
}

/** Links remote contacts to contacts, a thousand rows per statement; a remote contact linked before is relinked. */
export async function upsertContactLinks(
  db: Kysely<DB>,
  links: { credential: string; remote_id: string; contact: string }[],
): Promise<void> {
  for (let i = 0; i < links.length; i += 1000) {
    await db
      .insertInto('extmail_contacts')
      .values(links.slice(i, i + 1000))
      .onConflict((oc) =>
        oc.columns(['credential', 'remote_id']).doUpdateSet({ contact: (eb) => eb.ref('excluded.contact') }),
      )
      .execute();
  }
}
