// The body of GET /notifications from the page PostgreSQL wrote as JSON (feed-page.repository.ts): the embedded
// user and listing records go in where their markers are, serialized by the route's own serializer for their
// schemas; the envelope is written around the page. Nothing is parsed and nothing is serialized twice.
import type { TSchema } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { ListingRecord } from '../listings/listings.schemas.js';
import { UserRecord } from '../users/users.schemas.js';
import { MARKER_NONCE, type FeedPageJson } from './feed-page.repository.js';
import { loadEmbeddedRecords } from './notifications.presenter.js';

/** Serializes a value by its response schema (the route passes reply.serializeInput). */
export type Serialize = (value: Record<string, unknown>, schema: TSchema) => string;

/** `"<nonce>U<user id>"` / `"<nonce>L<listing id>"`: ids as PostgreSQL writes a uuid. */
const MARKERS = new RegExp(
  `"${MARKER_NONCE}([UL])([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})"`,
  'g',
);

export async function feedBody(db: Kysely<DB>, page: FeedPageJson, now: Date, serialize: Serialize): Promise<string> {
  const data = page.page.includes(MARKER_NONCE) ? await embedRecords(db, page.page, now, serialize) : page.page;
  return `{"code":"OK","data":${data},"info":{"count":${page.count},"total":${page.total},"new":${page.unseen}}}`;
}

/** Each marker becomes its record, or nothing when the user or listing is gone (`objects: []`, as the presenter). */
async function embedRecords(db: Kysely<DB>, page: string, now: Date, serialize: Serialize): Promise<string> {
  const userIds = new Set<string>();
  const listingIds = new Set<string>();
  for (const [, kind, id] of page.matchAll(MARKERS)) (kind === 'U' ? userIds : listingIds).add(id!);
  const { users, listings } = await loadEmbeddedRecords(db, [...userIds], [...listingIds], now);
  return page.replace(MARKERS, (_, kind: string, id: string) => {
    const record = kind === 'U' ? users.get(id) : listings.get(id);
    return record === undefined
      ? ''
      : serialize(record as unknown as Record<string, unknown>, kind === 'U' ? UserRecord : ListingRecord);
  });
}
