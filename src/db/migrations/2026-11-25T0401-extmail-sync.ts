// Contacts sync of linked mailboxes (docs/extmail.md "Sync"). The sync state of a credential (its `jobs`), the
// page cursor of an unfinished delta round (so a stopped sync resumes where it was), and the link from each
// imported remote contact to the brand contact it was imported into or matched with.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table extmail_credentials
      add column sync_status text check (sync_status in ('queued', 'running', 'succeeded', 'failed')),
      add column sync_queued_at timestamptz,
      add column sync_started_at timestamptz,
      add column sync_finished_at timestamptz,
      add column sync_error text,
      add column last_synced_at timestamptz,
      add column contacts_sync_cursor text;
    create index extmail_credentials_due_idx on extmail_credentials (last_synced_at nulls first) where deleted_at is null and revoked = false;
    create table extmail_contacts (
      credential uuid not null references extmail_credentials (id),
      remote_id text not null,
      contact uuid not null references contacts (id),
      primary key (credential, remote_id)
    );
    create index extmail_contacts_contact_idx on extmail_contacts (contact);
  `.execute(db);
}
