// All SQL of contacts. Writers go through contactColumns() so derived columns are written with every change.
import { sql, type Compilable, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { ContactAddress } from './contacts.columns.js';
import { narrowed } from '../../db/narrow.js';
import type { DB, Narrowed } from '../../db/types.js';
import { preparedQuery } from '../../db/prepared.js';
import { bearerQuery, type BearerRow } from '../auth/index.js';
import { reachOf, type ReachColumns } from '../brands/index.js';
import { displayNameOf, emailKeysOf, nextTouchOf, searchLexemes, sortFieldOf } from './contacts.derive.js';
import type { ContactFields } from './contacts.input.js';
import type { ContactOrderKey } from './contacts.schemas.js';

export const CONTACT_COLUMNS = [
  'id',
  'brand',
  'user_id',
  'title',
  'first_name',
  'middle_name',
  'last_name',
  'nickname',
  'marketing_name',
  'partner_first_name',
  'partner_last_name',
  'partner_email',
  'company',
  'job_title',
  'emails',
  'phone_numbers',
  'birthday',
  'home_anniversary',
  'wedding_anniversary',
  'profile_image_url',
  'cover_image_url',
  'website',
  'tags',
  'address',
  'source_type',
  'source',
  'parked',
  'unsubscribed',
  'ios_address_book_id',
  'android_address_book_id',
  'touch_freq',
  'last_touch',
  'last_touch_action',
  'next_touch',
  'display_name',
  'sort_field',
  'created_for',
  'updated_for',
  'deleted_for',
  'created_at',
  'updated_at',
  'deleted_at',
] as const satisfies readonly (keyof DB['contacts'])[];

/** A contact as read: its addresses typed (contacts.columns.ts); every write stores an array. */
export type ContactRow = Narrowed<
  Pick<Selectable<DB['contacts']>, (typeof CONTACT_COLUMNS)[number]>,
  { address: ContactAddress[] }
>;

/** The stored fields of a row, as contacts.input.ts works on them. */
export function fieldsOf(row: ContactRow): ContactFields {
  const {
    id: _id,
    brand: _b,
    user_id: _u,
    next_touch: _n,
    display_name: _d,
    sort_field: _s,
    created_for: _cf,
    updated_for: _uf,
    deleted_for: _df,
    created_at: _c,
    updated_at: _up,
    deleted_at: _del,
    ...fields
  } = row;
  return fields;
}

/** Every written column of a contact: its fields plus what is derived from them. */
function contactColumns(fields: ContactFields) {
  const displayName = displayNameOf(fields);
  return {
    ...fields,
    address: JSON.stringify(fields.address),
    email_keys: emailKeysOf(fields),
    next_touch: nextTouchOf(fields),
    display_name: displayName,
    sort_field: sortFieldOf(displayName),
    search_tsv: sql<string>`array_to_tsvector(${searchLexemes(fields)}::text[])`,
  };
}

export interface NewContact {
  /** A chosen id (the demo world derives its ids); a new uuid otherwise. */
  id?: string;
  brand: string;
  user_id: string | null;
  fields: ContactFields;
  reason: string;
  at: Date;
}

/** Rows per insert: ~45 parameters each, well below PostgreSQL's 65,535 per statement. */
const INSERT_CHUNK = 500;

export async function insertContacts(db: Kysely<DB>, contacts: NewContact[]): Promise<ContactRow[]> {
  const rows: ContactRow[] = [];
  for (let i = 0; i < contacts.length; i += INSERT_CHUNK) {
    const chunk = contacts.slice(i, i + INSERT_CHUNK);
    const inserted = await db
      .insertInto('contacts')
      .values(
        chunk.map((c) => ({
          ...contactColumns(c.fields),
          ...(c.id ? { id: c.id } : {}),
          brand: c.brand,
          user_id: c.user_id,
          created_for: c.reason,
          updated_for: c.reason,
          created_at: c.at,
          updated_at: c.at,
        })),
      )
      .returning(CONTACT_COLUMNS)
      .execute();
    rows.push(...narrowed<ContactRow[]>(inserted));
  }
  return rows;
}

/**
 * From here to fillContactWords, in this transaction, inserted contacts get no words (contact_words) yet: a bulk
 * import writes them all at its end in one statement in index order, far cheaper than one insert of words per
 * statement of contacts (migration 2026-11-28T0100-contact-words). Updates and deletes keep their words as always.
 */
export async function deferContactWords(trx: Transaction<DB>): Promise<void> {
  await sql`select set_config('gable.defer_contact_words', 'on', true)`.execute(trx);
}

/** Writes the words of these contacts (inserted since deferContactWords) and ends the deferral. */
export async function fillContactWords(trx: Transaction<DB>, ids: string[]): Promise<void> {
  await sql`select set_config('gable.defer_contact_words', 'off', true)`.execute(trx);
  if (ids.length === 0) return;
  await sql`
    insert into contact_words (brand, word, sort_field, contact)
    select c.brand, w.word, c.sort_field, c.id
    from contacts c, unnest(tsvector_to_array(c.search_tsv)) as w(word)
    where c.id = any(${ids}::uuid[]) and c.deleted_at is null
    order by 1, 2, 3, 4
  `.execute(trx);
}

export async function findContact(
  db: Kysely<DB>,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<ContactRow | undefined> {
  let query = db.selectFrom('contacts').select(CONTACT_COLUMNS).where('id', '=', id).where('deleted_at', 'is', null);
  if (options.forUpdate) query = query.forUpdate();
  return narrowed<ContactRow | undefined>(await query.executeTakeFirst());
}

/**
 * A live contact and the reach of `userId` on its brand (brands/access.ts reachOf) in one prepared round trip:
 * `GET /contacts/:id` is a hot read, and its access check would otherwise be a second, unprepared query.
 */
export const findContactWithReach = preparedQuery<[string, string | null], ContactRow & ReachColumns>(
  'contacts.find-with-reach',
  ['00000000-0000-0000-0000-00000000c0c0', '00000000-0000-0000-0000-00000000beef'],
  (db, id, userId) => {
    const columns = sql.join(CONTACT_COLUMNS.map((column) => sql.ref(`c.${column}`)));
    const query = sql<ContactRow & ReachColumns>`
      select ${columns}, reach.* from contacts c cross join ${reachOf(sql`c.brand`, userId)}
      where c.id = ${id}::uuid and c.deleted_at is null`;
    return { compile: () => query.compile(db) };
  },
);

/** The timestamp columns of a contact: text in JSON, Dates in a ContactRow. */
const CONTACT_TIMESTAMPS = [
  'last_touch',
  'next_touch',
  'created_at',
  'updated_at',
  'deleted_at',
] as const satisfies readonly (typeof CONTACT_COLUMNS)[number][];

/**
 * A contact row read as one JSON value (row_to_json of CONTACT_COLUMNS): its timestamps become Dates, as pg
 * parses them in a column (both keep whole milliseconds); the rest is already what pg would answer (arrays,
 * numbers, booleans, the address).
 */
export function contactRowOfJson(json: Record<string, unknown>): ContactRow {
  for (const column of CONTACT_TIMESTAMPS) if (json[column] !== null) json[column] = new Date(json[column] as string);
  return json as unknown as ContactRow;
}

/** A bearer row with the contact (one JSON value, null: no such contact) and the reach of the token's user on its brand. */
export type BearerWithContact = BearerRow & { contact: Record<string, unknown> | null } & {
  [K in keyof ReachColumns]: ReachColumns[K] | null;
};

/**
 * `GET /contacts/:id` in ONE round trip (modules/auth/authenticate.ts `config.bearerRead`): the bearer lookup with the live
 * contact and the reach of the token's user on its brand joined laterally, as one prepared statement. A
 * contact id that is not a uuid is passed as null (no contact): the route's schema answers it with a 400. The
 * contact comes back as ONE json column: pg describes and parses every column of every execution, and the 42
 * columns of a contact were a tenth of the request's CPU time (profile of the bench).
 */
export const findBearerWithContact = preparedQuery<[Buffer, string | null], BearerWithContact>(
  'contacts.find-bearer-with-contact',
  [Buffer.alloc(32), '00000000-0000-0000-0000-00000000c0c1'],
  (db, tokenHash, id) => {
    const columns = sql.join(CONTACT_COLUMNS.map((column) => sql.ref(`c.${column}`)));
    const contact = sql<{ contact: Record<string, unknown> } & ReachColumns>`(
      select (select row_to_json(x) from (select ${columns}) x) as contact, reach.*
      from contacts c cross join ${reachOf(sql`c.brand`, sql.ref('f.user'))}
      where c.id = ${id}::uuid and c.deleted_at is null
    )`;
    return bearerQuery(db, tokenHash)
      .leftJoinLateral(contact.as('ct'), (join) => join.onTrue())
      .selectAll('ct') as unknown as Compilable<BearerWithContact>;
  },
);

/** Live contacts among `ids`: id → brand. */
export async function brandsOfLiveContacts(db: Kysely<DB>, ids: string[]): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('contacts')
    .select(['id', 'brand'])
    .where(sql<boolean>`id = any(${ids}::uuid[])`)
    .where('deleted_at', 'is', null)
    .execute();
  return new Map(rows.map((row) => [row.id, row.brand]));
}

/** Live contacts among `ids`, in no particular order. */
export async function findLiveContacts(db: Kysely<DB>, ids: string[]): Promise<ContactRow[]> {
  if (ids.length === 0) return [];
  return narrowed<ContactRow[]>(
    await db
      .selectFrom('contacts')
      .select(CONTACT_COLUMNS)
      .where(sql<boolean>`id = any(${ids}::uuid[])`)
      .where('deleted_at', 'is', null)
      .execute(),
  );
}

/** Live contacts among `ids`, locked for the change that follows. */
export async function findContactsForUpdate(db: Kysely<DB>, ids: string[]): Promise<ContactRow[]> {
  return narrowed<ContactRow[]>(
    await db
      .selectFrom('contacts')
      .select(CONTACT_COLUMNS)
      .where(sql<boolean>`id = any(${ids}::uuid[])`)
      .where('deleted_at', 'is', null)
      .forUpdate()
      .execute(),
  );
}

/** Live contacts of the brand carrying this address (lower-cased key) among their emails. */
export async function liveContactIdsWithEmail(db: Kysely<DB>, brand: string, emailKey: string): Promise<string[]> {
  const rows = await db
    .selectFrom('contacts')
    .select('id')
    .where('brand', '=', brand)
    .where('deleted_at', 'is', null)
    .where(sql<boolean>`email_keys @> array[${emailKey}]::text[]`)
    .execute();
  return rows.map((r) => r.id);
}

/** Whether a contact (live or not) can be sent marketing email: its addresses and its unsubscription. */
export async function findMailability(
  db: Kysely<DB>,
  id: string,
): Promise<{ emails: string[]; unsubscribed: boolean }> {
  return db.selectFrom('contacts').select(['emails', 'unsubscribed']).where('id', '=', id).executeTakeFirstOrThrow();
}

export async function updateContact(
  db: Kysely<DB>,
  id: string,
  fields: ContactFields,
  reason: string,
  at: Date,
): Promise<ContactRow> {
  return narrowed<ContactRow>(
    await db
      .updateTable('contacts')
      .set({ ...contactColumns(fields), updated_for: reason, updated_at: at })
      .where('id', '=', id)
      .returning(CONTACT_COLUMNS)
      .executeTakeFirstOrThrow(),
  );
}

export async function softDeleteContacts(
  db: Kysely<DB>,
  ids: string[],
  reason: string,
  at: Date,
): Promise<ContactRow[]> {
  return narrowed<ContactRow[]>(
    await db
      .updateTable('contacts')
      .set({ deleted_at: at, deleted_for: reason, updated_at: at })
      .where(sql<boolean>`id = any(${ids}::uuid[])`)
      .where('deleted_at', 'is', null)
      .returning(CONTACT_COLUMNS)
      .execute(),
  );
}

export interface ContactFilter {
  brand: string;
  /** Words of `q` (lib/search-words.ts prefixTerms), each matching a word of the contact as a prefix; none: no q. */
  words: string[];
  tags: string[];
}

export interface ContactPage extends ContactFilter {
  order: ContactOrderKey;
  descending: boolean;
  start: number;
  limit: number;
  /** How many rows match (counted first): decides how the page is found. */
  total: number;
}

const ORDER_COLUMN = {
  display_name: 'sort_field',
  created_at: 'created_at',
  updated_at: 'updated_at',
  last_touch: 'last_touch',
} as const;

/**
 * Above this many matches a filtered page walks the (brand, order key) index and checks the filter on the way
 * (matches are dense: 50 are found quickly). At or below it, the page is the top of the matches found through
 * the search/tag index, sorted: walking the order index could pass most of a brand before finding them. The
 * planner cannot tell the two apart (prefix queries have no useful selectivity estimate); the exact count can.
 */
export const DENSE_MATCHES = 10_000;

/**
 * The upper end of the range of words starting with `prefix` in byte order (collate "C", as contact_words.word
 * is): search words are letters and digits, and none starts with the prefix and sorts after it followed by
 * U+10FFFF (a noncharacter). A range, not `like`, so a prepared or generic plan uses the index as well.
 */
const prefixEnd = (prefix: string) => `${prefix}\u{10FFFF}`;

/** The words of the brand's live contacts starting with `prefix` (contact_words). */
function withWord(db: Kysely<DB>, brand: string, prefix: string) {
  return db
    .selectFrom('contact_words')
    .where('brand', '=', brand)
    .where('word', '>=', prefix)
    .where('word', '<', prefixEnd(prefix));
}

function filtered(db: Kysely<DB>, filter: ContactFilter) {
  let query = db.selectFrom('contacts').where('brand', '=', filter.brand).where('deleted_at', 'is', null);
  for (const word of filter.words) query = query.where('id', 'in', withWord(db, filter.brand, word).select('contact'));
  if (filter.tags.length > 0) query = query.where(sql<boolean>`tags && ${filter.tags}::text[]`);
  return query;
}

export async function listContacts(db: Kysely<DB>, page: ContactPage): Promise<ContactRow[]> {
  if (page.start >= page.total) return [];
  const column = sql.ref(ORDER_COLUMN[page.order]);
  const direction = sql.raw(page.descending ? 'desc' : 'asc');
  const sparse = (page.words.length > 0 || page.tags.length > 0) && page.total <= DENSE_MATCHES;
  // An expression of the key (same order) that no index provides, so the planner sorts the matches.
  const key = !sparse
    ? column
    : page.order === 'display_name'
      ? sql`(${column} || '')`
      : sql`(${column} + interval '0')`;
  // Only last_touch has nulls (never touched): last in both directions, like its two indexes.
  const nulls = sql.raw(page.order === 'last_touch' ? ' nulls last' : '');
  return narrowed<ContactRow[]>(
    await filtered(db, page)
      .select(CONTACT_COLUMNS)
      .orderBy(sql`${key} ${direction}${nulls}`)
      .orderBy('id', page.descending ? 'desc' : 'asc')
      .offset(page.start)
      .limit(page.limit)
      .execute(),
  );
}

export interface ContactPageRequest extends ContactFilter {
  order: ContactOrderKey;
  descending: boolean;
  start: number;
  limit: number;
}

/**
 * A page of contacts and the exact total, in one statement when the filter matches at most DENSE_MATCHES
 * contacts (the typed-prefix case). Counting and paging separately made PostgreSQL fetch every match from the
 * heap twice: a prefix such as `oli` matches ~5 % of a brand, one heap page per match, and those visits are
 * the whole cost (EXPLAIN: 6,000 heap blocks per pass on 120,000 contacts). Here the matches' ids and order
 * keys are read ONCE (at most DENSE_MATCHES + 1 of them), counted, and the page is the top of them. When the
 * cap is reached the matches are dense: the exact count and the walk of the order index follow (listContacts).
 */
export async function findContactsPage(
  db: Kysely<DB>,
  request: ContactPageRequest,
): Promise<{ rows: ContactRow[]; total: number }> {
  if (request.words.length > 0 || request.tags.length > 0) {
    const sparse = await sparsePage(db, request);
    if (sparse) return sparse;
  }
  const total = await countContacts(db, request);
  return { rows: await listContacts(db, { ...request, total }), total };
}

const pageColumns = sql.join(CONTACT_COLUMNS.map((column) => sql.ref(`c.${column}`)));

/**
 * The matches of a filter (id) with their order key (k). Words alone in +display_name order (what a search box
 * asks) are answered from contact_words only, index-only range scans that never visit a contact: the words of
 * the shortest prefix (the most entries, read once) whose contact also has a word of each other prefix (each a
 * hashed semi-join; the longer prefix is the smaller hash). `noah j` on 120,000 contacts: 8 ms this way, 11–17 ms
 * as an INTERSECT of the two scans.
 */
function matchesWithKeys(db: Kysely<DB>, request: ContactPageRequest, limit: number) {
  if (request.order !== 'display_name' || request.tags.length > 0 || request.words.length === 0) {
    return filtered(db, request)
      .select(['id', sql.ref(ORDER_COLUMN[request.order]).as('k')])
      .limit(limit);
  }
  const [shortest, ...others] = [...request.words].sort((a, b) => a.length - b.length) as [string, ...string[]];
  let query = withWord(db, request.brand, shortest).select(['contact as id', 'sort_field as k']).distinct();
  for (const word of others) query = query.where('contact', 'in', withWord(db, request.brand, word).select('contact'));
  return query.limit(limit);
}

/** The sparse case of findContactsPage: null when the filter matches more than DENSE_MATCHES contacts. */
async function sparsePage(
  db: Kysely<DB>,
  request: ContactPageRequest,
): Promise<{ rows: ContactRow[]; total: number } | null> {
  const matches = matchesWithKeys(db, request, DENSE_MATCHES + 1);
  const direction = sql.raw(request.descending ? 'desc' : 'asc');
  const nulls = sql.raw(request.order === 'last_touch' ? ' nulls last' : '');
  // Past the last page the count row comes alone, its contact columns null.
  const result = await sql<(ContactRow & { total: number }) | { total: number; id: null }>`
    with m as materialized ${matches}
    select n.total, ${pageColumns}
    from (select count(*)::int as total from m) n
    left join (select id, k from m order by k ${direction}${nulls}, id ${direction} offset ${request.start} limit ${request.limit}) p on true
    left join contacts c on c.id = p.id
    order by p.k ${direction}${nulls}, p.id ${direction}
  `.execute(db);
  const total = result.rows[0]?.total ?? 0;
  if (total > DENSE_MATCHES) return null;
  return {
    rows: result.rows
      .filter((row): row is ContactRow & { total: number } => row.id !== null)
      .map(({ total: _total, ...row }) => row),
    total,
  };
}

export async function countContacts(db: Kysely<DB>, filter: ContactFilter): Promise<number> {
  const row = await filtered(db, filter)
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

export async function tagCounts(db: Kysely<DB>, brand: string): Promise<{ tag: string; count: number }[]> {
  const rows = await sql<{ tag: string; count: number }>`
    select t.tag, count(*)::int as count
    from contacts c cross join lateral unnest(c.tags) as t(tag)
    where c.brand = ${brand} and c.deleted_at is null
    group by t.tag
    order by t.tag collate "C"
  `.execute(db);
  return rows.rows;
}

/** The brand's oldest live contact with this email (any of its emails, case-insensitive) or E.164 number. */
export async function findContactByKey(
  db: Kysely<DB>,
  brand: string,
  by: { emailKey: string } | { phone: string },
): Promise<ContactRow | undefined> {
  const match =
    'emailKey' in by
      ? sql<boolean>`email_keys @> array[${by.emailKey}]::text[]`
      : sql<boolean>`phone_numbers @> array[${by.phone}]::text[]`;
  return narrowed<ContactRow | undefined>(
    await db
      .selectFrom('contacts')
      .select(CONTACT_COLUMNS)
      .where('brand', '=', brand)
      .where('deleted_at', 'is', null)
      .where(match)
      .orderBy('created_at')
      .orderBy('id')
      .limit(1)
      .forUpdate()
      .executeTakeFirst(),
  );
}

/** Serialises writers of the same (brand, key) until the transaction ends: two leads of one person make one contact. */
export async function lockContactKey(db: Kysely<DB>, brand: string, key: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`${brand}:${key}`}, 0))`.execute(db);
}

/** Which of these ids are taken (live or deleted contacts). */
export async function existingContactIds(db: Kysely<DB>, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('contacts')
    .select('id')
    .where(sql<boolean>`id = any(${ids}::uuid[])`)
    .execute();
  return new Set(rows.map((r) => r.id));
}
