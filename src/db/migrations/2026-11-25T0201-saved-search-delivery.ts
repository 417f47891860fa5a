// Delivering saved-search matches (issue 12 item 3, decisions §6; docs/saved-searches.md "Delivery"): the in-app
// notification and Instant emails per match, digests on each contact link's schedule, and the ledger that makes
// each (search, contact, listing) emailed at most once and each digest keyed by (search, contact, local date).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Set in the transaction that notified the owner and emailed the Instant contacts: a retried job skips it.
    alter table saved_search_matches add column delivered_at timestamptz;

    -- The next digest of a Daily/Weekly/Monthly link (null: to be computed from the schedule, which every schedule
    -- write clears it to), its local date (the digest's key), and the end of the window the last digest covered.
    alter table saved_search_contacts
      add column next_digest_at timestamptz,
      add column next_digest_date date,
      add column last_digest_at timestamptz;
    create index saved_search_contacts_digest_idx on saved_search_contacts (next_digest_at)
      where frequency in ('Daily', 'Weekly', 'Monthly');

    -- One row per (search, contact, listing) ever emailed: the at-most-once rule.
    create table saved_search_alerts (
      saved_search uuid not null references saved_searches (id),
      contact uuid not null references contacts (id),
      listing uuid not null references listings (id) on delete cascade,
      mail_message uuid,
      created_at timestamptz not null default now(),
      primary key (saved_search, contact, listing)
    );

    -- One row per digest run of a link, empty ones included ("nothing new → no email", and not twice).
    create table saved_search_digests (
      id uuid primary key default gen_random_uuid(),
      saved_search uuid not null references saved_searches (id),
      contact uuid not null references contacts (id),
      local_date date not null,
      due_at timestamptz not null,
      listings integer not null,
      mail_message uuid,
      created_at timestamptz not null default now(),
      unique (saved_search, contact, local_date)
    );
  `.execute(db);
}
