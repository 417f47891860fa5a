// Match keys in the order rows arrive (issue 12, matching speed; ADR 0034, docs/saved-searches.md "Matching"). A match
// job inserts ~10,000 matches. With random (v4) uuids each row's entry in the primary key, and in the unique key
// (saved_search, event), lands on a random leaf of indexes that grow with every job: at 630,000 matches a job
// dirtied ~14,800 pages, and after a checkpoint wrote each as a full-page image (92 MB of WAL for one job, 0.33 s;
// at 2,000 events/s checkpoints come every few seconds). Version-7 uuids (RFC 9562: 48 bits of Unix milliseconds,
// the version, random bits, the variant) for the matches and for listing events (whose ids the matches carry), and
// the unique key turned to (event, saved_search), put a job's entries side by side at the right edge of both
// indexes: ~4,300 pages dirtied, 32 MB of WAL (measured in a rolled-back transaction on the bench database, a
// checkpoint before each variant). Generated in SQL (PostgreSQL 15 has no uuidv7()); still uuids, so no reader
// changes, and existing ids stay as they are. `on conflict (saved_search, event)` finds the key whatever its order.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function gable_uuid_v7() returns uuid language sql volatile parallel safe as $$
      select encode(
        set_bit(set_bit(
          overlay(uuid_send(gen_random_uuid()) placing substring(int8send((extract(epoch from clock_timestamp()) * 1000)::bigint) from 3) from 1 for 6),
          52, 1), 53, 1),
        'hex')::uuid
    $$;
    alter table saved_search_matches alter column id set default gable_uuid_v7();
    alter table listing_events alter column id set default gable_uuid_v7();
    create unique index saved_search_matches_event_search_key on saved_search_matches (event, saved_search);
    alter table saved_search_matches drop constraint saved_search_matches_saved_search_event_key;
  `.execute(db);
}
