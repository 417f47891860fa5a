// SQL of stored listing records (listing_records, listings.stored-record.ts): each listing's record as JSON text
// beside it, with the `version` of the code that wrote it and the listing's `updated_at` it describes. The version is
// the caller's (RECORD_VERSION): this file only reads and writes the texts it is given.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { selectEmbeds, type ListingEmbeds } from './listings.repository.js';

/**
 * Inserts or replaces the texts of these listings, stamped with `version` and the listing's `updated_at` (deleted or
 * unknown listings are skipped by the join). Answers how many texts were written.
 */
export async function upsertListingRecords(
  db: Kysely<DB>,
  version: string,
  records: { listing: string; text: string }[],
): Promise<number> {
  const texts = records.map((record) => record.text);
  // The texts travel as ONE parameter, a line each: a JSON text never holds a raw line feed (JSON escapes control
  // characters), and an array literal of 500 texts of ~5 kB would cost more to escape in Node and parse in
  // PostgreSQL than writing them does. updated_at is copied in SQL: its microseconds would not survive a Date.
  if (texts.some((text) => text.includes('\n'))) throw new Error('a stored listing record holds a raw line feed');
  const result = await sql`insert into listing_records (listing, version, listing_updated_at, record)
    select r.listing, ${version}, l.updated_at, r.record
    from unnest(${records.map((record) => record.listing)}::uuid[], string_to_array(${texts.join('\n')}::text, chr(10))) as r(listing, record)
    join listings l on l.id = r.listing
    on conflict (listing) do update set version = excluded.version, listing_updated_at = excluded.listing_updated_at, record = excluded.record`.execute(
    db,
  );
  return Number(result.numAffectedRows ?? records.length);
}

/**
 * The live listings of these ids (in no particular order) with what a page needs beside their text: the fields
 * days on market reads, the asked-for embeds, and the stored text when it is current (of `version` and of the
 * listing's `updated_at`), null otherwise. One statement whatever the page size.
 */
export async function findStoredRecords(db: Kysely<DB>, ids: string[], version: string, embed: ListingEmbeds) {
  const query = db
    .selectFrom('listings')
    .leftJoin('listing_records as s', (join) =>
      join
        .onRef('s.listing', '=', 'listings.id')
        .on('s.version', '=', version)
        .onRef('s.listing_updated_at', '=', 'listings.updated_at'),
    )
    .select(['listings.id', 'listings.list_date', 'listings.close_date', 'listings.status', 's.record'])
    .where(sql<boolean>`listings.id = any(${ids}::uuid[])`)
    .where('listings.deleted_at', 'is', null);
  return selectEmbeds(query, embed).execute();
}

/**
 * Up to `limit` listings whose stored text is of another version than `version`: found through the version index,
 * so when there are none this costs an index probe.
 */
export async function findOtherVersionListingIds(db: Kysely<DB>, version: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('listing_records')
    .select('listing')
    .where((eb) => eb.or([eb('version', '<', version), eb('version', '>', version)]))
    .limit(limit)
    .execute();
  return rows.map((row) => row.listing);
}

/** Deletes the texts of these listings that are of another version than `version` (those just written are not). */
export async function deleteOtherVersionRecords(db: Kysely<DB>, ids: string[], version: string): Promise<void> {
  await sql`delete from listing_records where listing = any(${ids}::uuid[]) and version <> ${version}`.execute(db);
}
