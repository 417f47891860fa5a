// Stored listing records (migration 2026-11-28T1100, docs/listing-search.md "Stored records"). Ingest writes each
// listing's record as JSON text beside it, serialized by the response schema's own serializer; a search page then
// reads one text per listing and splices in what depends on the request (days on market, embedded agents and
// mls_info). Reading ~60 columns, presenting them and serializing the result again was most of the server's CPU
// per page.
//
// A stored text is used only while it still describes its listing: the same `version` (a digest of the record's
// shape and formatting code, below) and the listing's `updated_at`. Anything else is presented from its columns
// as before: a deploy that changes the record (the `listings.refresh-records` task then writes the texts again),
// or a listing changed by a path that does not call writeListingRecords (every write goes through ingest, which
// does; a new path must too).
import { createHash } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import fastJson from 'fast-json-stringify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { daysOnMarket, embedded, presentListing } from './listings.presenter.js';
import { findListingRows, type ListingEmbeds, type ListingRow } from './listings.repository.js';
import { ListingRecord } from './listings.schemas.js';
import {
  deleteOtherVersionRecords,
  findOtherVersionListingIds,
  findStoredRecords,
  upsertListingRecords,
} from './listings.stored-record.repository.js';

/** The parts of a record that depend on the request (`now`, associations): never stored. */
const PER_REQUEST = ['dom', 'cdom', 'list_agent', 'selling_agent', 'mls_info'] as const;
const StoredPart = Type.Omit(ListingRecord, PER_REQUEST);
const RequestPart = Type.Pick(ListingRecord, PER_REQUEST);

// The serializer Fastify builds from a response schema (fast-json-stringify, default options): a stored text is
// byte for byte what the route's serializer writes for those fields.
const stringifyStored = fastJson(StoredPart);
const stringifyRequestPart = fastJson(RequestPart);
const stringifyRecord = fastJson(ListingRecord);

/** Any instant: the stored part does not read `now` (dom and cdom are the only fields that do). */
const NO_NOW = new Date(0);

/** The stored JSON text of a listing row read without embeds. */
export function storedRecordText(row: ListingRow): string {
  return stringifyStored(presentListing(row, NO_NOW));
}

/** A listing's whole record as JSON text: its stored part with the request's part spliced in front. */
function spliced(stored: string, requestPart: Parameters<typeof stringifyRequestPart>[0]): string {
  const head = stringifyRequestPart(requestPart); // {"dom":…,"cdom":…[,embeds]}: never empty (dom, cdom required)
  return `${head.slice(0, -1)},${stored.slice(1)}`;
}

/**
 * The version of every text written by this code: a digest of the stored schema and of the texts of sample rows
 * that exercise the formatting (every formatted entry present, then every value null). A change to the presenter,
 * the formatting or the schema that changes any of them changes the version, and old texts stop being used.
 */
export const RECORD_VERSION = createHash('sha256')
  .update(JSON.stringify(StoredPart))
  .update(sampleRows().map(storedRecordText).join('\n'))
  .digest('base64url')
  .slice(0, 16);

/**
 * Writes the stored texts of these listings as they are now (deleted or unknown ids are skipped). Call it in the
 * transaction that changed them, after every write that shows in the record (the row and its open houses).
 */
export async function writeListingRecords(db: Kysely<DB>, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await findListingRows(db, ids);
  if (rows.length === 0) return 0;
  return upsertListingRecords(
    db,
    RECORD_VERSION,
    rows.map((row) => ({ listing: row.id, text: storedRecordText(row) })),
  );
}

/**
 * The records of these ids as JSON texts, in the order given; unknown or deleted ids are skipped. Each text is
 * what the route's serializer would write for `presentListing` of the row (tested in
 * listings.stored-record.test.ts). One statement when every stored text is current; listings without one are
 * presented from their columns by a second.
 */
export async function loadListingRecordTexts(
  db: Kysely<DB>,
  ids: string[],
  now: Date,
  embed: ListingEmbeds = {},
): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await findStoredRecords(db, ids, RECORD_VERSION, embed);
  const unstored = rows.filter((row) => row.record === null).map((row) => row.id);
  const presented = new Map(
    (await findListingRows(db, unstored, embed)).map((row) => [row.id, stringifyRecord(presentListing(row, now))]),
  );
  const texts = new Map(
    rows.map((row) => {
      if (row.record === null) return [row.id, presented.get(row.id)];
      const dom = daysOnMarket(row, now);
      return [row.id, spliced(row.record, { dom, cdom: dom, ...embedded(row) })];
    }),
  );
  return ids.flatMap((id) => {
    const text = texts.get(id);
    return text === undefined ? [] : [text];
  });
}

/**
 * Up to `limit` listings whose stored text is of another version than this code's (a deploy changed the record,
 * or the placeholder the migration gave listings stored before it): found through the version index, so when
 * there are none this costs an index probe.
 */
export async function otherVersionIds(db: Kysely<DB>, limit: number): Promise<string[]> {
  return findOtherVersionListingIds(db, RECORD_VERSION, limit);
}

/**
 * Writes these listings' texts again; those that are not live any more (deleted since) lose their text instead,
 * so the next look finds neither again. Answers how many texts were written.
 */
export async function rewriteListingRecords(db: Kysely<DB>, ids: string[]): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const written = await writeListingRecords(trx, ids);
    await deleteOtherVersionRecords(trx, ids, RECORD_VERSION);
    return written;
  });
}

/** Rows for the version digest: one with every value the formatting reads, one with every value null. */
function sampleRows(): ListingRow[] {
  const at = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));
  const full: ListingRow = {
    id: '00000000-0000-4000-8000-000000000001',
    mls: 'SAMPLE',
    mls_number: 'S-1',
    status: 'Sold',
    price: 1_234_567,
    original_price: 1_300_000,
    last_price: 1_250_000,
    close_price: 1_200_000,
    close_date: at,
    list_date: at,
    currency: 'USD',
    office_exclusive: false,
    content: 'Remarks',
    list_agent_mui: 'A1',
    co_list_agent_mui: 'A2',
    co_list_agent2_mui: 'A3',
    co_list_agent3_mui: 'A4',
    selling_agent_mui: 'A5',
    co_selling_agent_mui: 'A6',
    co_selling_agent2_mui: 'A7',
    co_selling_agent3_mui: 'A8',
    list_office_mls_id: 'O1',
    co_list_office_mls_id: 'O2',
    selling_office_mls_id: 'O3',
    co_selling_office_mls_id: 'O4',
    list_office_name: 'Office',
    property_type: 'Residential',
    property_subtype: 'House',
    bedroom_count: 1,
    full_bathroom_count: 2,
    half_bathroom_count: 1,
    bathroom_count: 2.5,
    square_meters: 171.87,
    lot_square_meters: 5000,
    year_built: 1999,
    parking_spaces_covered_total: 1,
    parking_spaces_uncovered_total: 1,
    parking_spaces_total: 2,
    pool: true,
    pets: false,
    application_fee: true,
    appliances: false,
    furnished: true,
    fenced_yard: false,
    number_of_pets_allowed: 2,
    features: { Heating: ['Gas'] } as ListingRow['features'],
    street_number: '1',
    street_name: 'Main St',
    unit_number: '2',
    city: 'Dallas',
    state: 'TX',
    postal_code: '75201',
    country: 'US',
    full_address: '1 Main St #2, Dallas, TX 75201',
    street_address: '1 Main St #2',
    location: { x: -96.8, y: 32.8 } as ListingRow['location'],
    gallery_image_urls: ['https://img.example.com/1.jpg'],
    cover_image_url: 'https://img.example.com/1.jpg',
    open_house_until: at,
    created_at: at,
    updated_at: at,
    deleted_at: null,
    open_houses: [{ start_time: 1, end_time: 2, description: 'Tour' }],
  };
  const small = { ...full, lot_square_meters: 100, bedroom_count: 3, bathroom_count: 1, half_bathroom_count: 0 };
  const empty = Object.fromEntries(
    Object.entries(full).map(([key, value]) => [
      key,
      value === null ||
      key === 'id' ||
      key === 'mls' ||
      key === 'mls_number' ||
      key === 'status' ||
      key === 'currency' ||
      key === 'created_at' ||
      key === 'updated_at'
        ? value
        : Array.isArray(value)
          ? []
          : null,
    ]),
  ) as ListingRow;
  return [full, small, empty];
}

/** Each step (`batch` listings, listings.tasks.ts) is its own transaction: a run cut short keeps what it wrote. */
export async function refreshOtherVersions(
  deps: { db: Kysely<DB> },
  options: { stopping?: AbortSignal; batch: number },
): Promise<number> {
  const { stopping, batch } = options;
  let written = 0;
  while (!stopping?.aborted) {
    const ids = await otherVersionIds(deps.db, batch);
    if (ids.length === 0) break;
    written += await rewriteListingRecords(deps.db, ids);
  }
  return written;
}
