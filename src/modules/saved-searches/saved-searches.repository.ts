// All SQL of saved searches. A search is read with its brands, boundaries, contact links and the owner's time
// zone in one statement (sub-selects), so a page of 50 is one query.
import { sql, type Kysely } from 'kysely';
import { arrayLiteral, unnestRows } from '../../db/arrays.js';
import { uuidV7 } from '../../lib/uuid.js';
import type { DB } from '../../db/types.js';
import type { SearchCriteria } from '../listings/search/search.schemas.js';
import type { StoredCriteria } from './saved-searches.columns.js';

export interface Schedule {
  frequency: string;
  send_time: number | null;
  send_weekday: number | null;
  send_monthday: number | null;
}

export interface LinkRow extends Schedule {
  contact: string;
  created_at: number;
  updated_at: number;
}

export interface SavedSearchRow extends Schedule {
  id: string;
  brand: string;
  created_by: string | null;
  from_user: string | null;
  title: string | null;
  proposed_title: string;
  criteria: StoredCriteria;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
  timezone: string;
  brands: string[];
  boundaries: string[];
  links: LinkRow[];
}

/** The brands a search `s` names (its criteria's `brands`), by id. */
export const searchBrands = sql<
  string[]
>`coalesce((select array_agg(b.brand::text order by b.brand) from saved_search_brands b where b.saved_search = s.id), '{}')`.as(
  'brands',
);

/** The boundaries a search `s` names (its criteria's `boundaries`), in their order. */
export const searchBoundaries = sql<
  string[]
>`coalesce((select array_agg(x.boundary::text order by x.position) from saved_search_boundaries x where x.saved_search = s.id), '{}')`.as(
  'boundaries',
);

function selectSearches(db: Kysely<DB>) {
  return db
    .selectFrom('saved_searches as s')
    .leftJoin('users as u', 'u.id', 's.created_by')
    .select([
      's.id',
      's.brand',
      's.created_by',
      's.from_user',
      's.title',
      's.proposed_title',
      's.criteria',
      's.frequency',
      's.send_time',
      's.send_weekday',
      's.send_monthday',
      's.created_at',
      's.updated_at',
      's.deleted_at',
    ])
    .select(sql<string>`coalesce(u.timezone, 'UTC')`.as('timezone'))
    .select([searchBrands, searchBoundaries])
    .select(
      sql<LinkRow[]>`coalesce((
        select json_agg(json_build_object(
          'contact', l.contact, 'frequency', l.frequency, 'send_time', l.send_time, 'send_weekday', l.send_weekday,
          'send_monthday', l.send_monthday, 'created_at', extract(epoch from l.created_at), 'updated_at', extract(epoch from l.updated_at)
        ) order by l.created_at, l.contact)
        from saved_search_contacts l join contacts c on c.id = l.contact and c.deleted_at is null
        where l.saved_search = s.id), '[]'::json)`.as('links'),
    )
    .where('s.deleted_at', 'is', null);
}

/** A live saved search of `brand` (another brand's id finds nothing). */
export async function findSavedSearch(db: Kysely<DB>, brand: string, id: string): Promise<SavedSearchRow | undefined> {
  return (await selectSearches(db).where('s.brand', '=', brand).where('s.id', '=', id).executeTakeFirst()) as
    SavedSearchRow | undefined;
}

/** Locks the search row for a change (PATCH, PUT, DELETE, links) so two writers do not interleave. */
export async function lockSavedSearch(db: Kysely<DB>, brand: string, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('saved_searches')
    .select('id')
    .where('brand', '=', brand)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
  return row !== undefined;
}

export async function listSavedSearches(
  db: Kysely<DB>,
  brand: string,
  start: number,
  limit: number,
): Promise<SavedSearchRow[]> {
  return (await selectSearches(db)
    .where('s.brand', '=', brand)
    .orderBy('s.created_at', 'desc')
    .orderBy('s.id', 'desc')
    .offset(start)
    .limit(limit)
    .execute()) as SavedSearchRow[];
}

export async function countSavedSearches(db: Kysely<DB>, brand: string): Promise<number> {
  const row = await db
    .selectFrom('saved_searches')
    .select((eb) => eb.fn.countAll<string>().as('total'))
    .where('brand', '=', brand)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** The match form columns a write stores with the criteria (matching.forms.ts matchFormColumns). */
export interface MatchFormColumns {
  match_shape: string | null;
  match_values: string | null;
  match_version: string;
  match_for: Date;
}

export interface SearchWrite extends Schedule {
  title: string | null;
  proposed_title: string;
  criteria: StoredCriteria;
  match: MatchFormColumns;
}

export async function insertSavedSearch(
  db: Kysely<DB>,
  values: SearchWrite & { brand: string; created_by: string | null; at: Date },
): Promise<string> {
  const { at, criteria, match, ...rest } = values;
  const row = await db
    .insertInto('saved_searches')
    .values({
      ...rest,
      ...match,
      from_user: values.created_by,
      criteria: JSON.stringify(criteria),
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateSavedSearch(db: Kysely<DB>, id: string, values: SearchWrite, at: Date): Promise<void> {
  const { criteria, match, ...rest } = values;
  await db
    .updateTable('saved_searches')
    .set({ ...rest, ...match, criteria: JSON.stringify(criteria), updated_at: at })
    .where('id', '=', id)
    .execute();
}

/** A write that leaves the criteria alone (links): a match form current before stays current. */
export async function touchSavedSearch(db: Kysely<DB>, id: string, at: Date): Promise<void> {
  await db
    .updateTable('saved_searches')
    .set({
      updated_at: at,
      match_for: sql<Date | null>`case when match_for = updated_at then ${at}::timestamptz else match_for end`,
    })
    .where('id', '=', id)
    .execute();
}

export async function softDeleteSavedSearch(db: Kysely<DB>, id: string, at: Date): Promise<void> {
  await db.updateTable('saved_searches').set({ deleted_at: at, updated_at: at }).where('id', '=', id).execute();
}

export async function replaceBrands(db: Kysely<DB>, id: string, brands: readonly string[]): Promise<void> {
  await db.deleteFrom('saved_search_brands').where('saved_search', '=', id).execute();
  const unique = [...new Set(brands)];
  if (unique.length > 0)
    await db
      .insertInto('saved_search_brands')
      .values(unique.map((brand) => ({ saved_search: id, brand })))
      .execute();
}

export async function replaceBoundaries(db: Kysely<DB>, id: string, boundaries: readonly string[]): Promise<void> {
  await db.deleteFrom('saved_search_boundaries').where('saved_search', '=', id).execute();
  const unique = [...new Set(boundaries)];
  if (unique.length > 0)
    await db
      .insertInto('saved_search_boundaries')
      .values(unique.map((boundary, position) => ({ saved_search: id, boundary, position })))
      .execute();
}

/** Links contacts with this schedule; a contact already linked gets the new schedule. */
export async function upsertLinks(
  db: Kysely<DB>,
  id: string,
  contacts: readonly string[],
  schedule: Schedule,
  at: Date,
): Promise<void> {
  const unique = [...new Set(contacts)];
  if (unique.length === 0) return;
  await db
    .insertInto('saved_search_contacts')
    .values(unique.map((contact) => ({ saved_search: id, contact, ...schedule, created_at: at, updated_at: at })))
    .onConflict((oc) =>
      oc.columns(['saved_search', 'contact']).doUpdateSet((eb) => ({
        frequency: eb.ref('excluded.frequency'),
        send_time: eb.ref('excluded.send_time'),
        send_weekday: eb.ref('excluded.send_weekday'),
        send_monthday: eb.ref('excluded.send_monthday'),
        updated_at: eb.ref('excluded.updated_at'),
        // a new schedule: the digest job computes the next digest from it
        next_digest_at: null,
        next_digest_date: null,
      })),
    )
    .execute();
}

/** Gives every linked contact the search's new schedule. */
export async function rescheduleLinks(db: Kysely<DB>, id: string, schedule: Schedule, at: Date): Promise<void> {
  await db
    .updateTable('saved_search_contacts')
    .set({ ...schedule, updated_at: at, next_digest_at: null, next_digest_date: null })
    .where('saved_search', '=', id)
    .execute();
}

/** Unlinks every contact not in `keep`. */
export async function unlinkOthers(db: Kysely<DB>, id: string, keep: readonly string[]): Promise<void> {
  let query = db.deleteFrom('saved_search_contacts').where('saved_search', '=', id);
  if (keep.length > 0) query = query.where(sql<boolean>`not (contact = any(${[...keep]}::uuid[]))`);
  await query.execute();
}

export async function unlinkContact(db: Kysely<DB>, id: string, contact: string): Promise<boolean> {
  const result = await db
    .deleteFrom('saved_search_contacts')
    .where('saved_search', '=', id)
    .where('contact', '=', contact)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** The criteria a stored search holds, as a search body would carry them. */
export function storedCriteriaOf(row: Pick<SavedSearchRow, 'criteria' | 'brands' | 'boundaries'>): SearchCriteria {
  return { ...row.criteria, brands: row.brands, boundaries: row.boundaries } as SearchCriteria;
}

/** A search's stored match form (matching.forms.ts), or, when it is missing or retired, what to compile it from. */
export interface SearchForm {
  id: string;
  /** updated_at as PostgreSQL's text (exact): a form compiled from this row is stored only for it. */
  updated_at: string;
  /** The stored form is current: its shape (null: the search cannot run) and its bind values as text. */
  fresh: boolean;
  shape: string | null;
  values: (string | null)[] | null;
  /** Only when not fresh: the criteria with their brands and boundaries. */
  criteria: StoredCriteria | null;
  brands: string[] | null;
  boundaries: string[] | null;
  /** What a match's delivery needs, read with the form (the same row): the owner notified in-app (null: none), */
  created_by: string | null;
  /** the title the notification and the emails show, */
  title: string;
  /** and whether a contact is linked with Instant frequency (its matches then get a delivery job). */
  instant: boolean;
}

function selectSearchForms(db: Kysely<DB>, version: string) {
  const fresh = sql<boolean>`(s.match_version is not distinct from ${version} and s.match_for is not distinct from s.updated_at)`;
  return (
    db
      .selectFrom('saved_searches as s')
      .select([
        's.id',
        sql<string>`s.updated_at::text`.as('updated_at'),
        fresh.as('fresh'),
        's.match_shape as shape',
        sql<(string | null)[] | null>`s.match_values`.as('values'),
      ])
      .select(['s.created_by', sql<string>`coalesce(s.title, s.proposed_title)`.as('title')])
      .select(
        sql<boolean>`exists (select 1 from saved_search_contacts l where l.saved_search = s.id and l.frequency = 'Instant')`.as(
          'instant',
        ),
      )
      // read only for a search whose form is to be compiled (a CASE evaluates only the branch it takes)
      .select(sql<StoredCriteria | null>`case when not ${fresh} then s.criteria end`.as('criteria'))
      .select(
        sql<
          string[] | null
        >`case when not ${fresh} then coalesce((select array_agg(b.brand::text order by b.brand) from saved_search_brands b where b.saved_search = s.id), '{}') end`.as(
          'brands',
        ),
      )
      .select(
        sql<
          string[] | null
        >`case when not ${fresh} then coalesce((select array_agg(x.boundary::text order by x.position) from saved_search_boundaries x where x.saved_search = s.id), '{}') end`.as(
          'boundaries',
        ),
      )
      .where('s.deleted_at', 'is', null)
  );
}

/** The match forms of these live searches (the match job confirms its candidates with them). */
export async function findSearchForms(db: Kysely<DB>, ids: readonly string[], version: string): Promise<SearchForm[]> {
  if (ids.length === 0) return [];
  // One array parameter (a batch of events can have more candidate searches than a statement has parameters),
  // each id looked up by primary key: as `id = any(…)` the planner chose to read the whole table for ~9 % of it
  // (60 ms against 40 on the bench's 100,000 searches); `offset 0` keeps the lookup per id.
  const forms = selectSearchForms(db, version)
    .where('s.id', '=', sql<string>`i.id`)
    .offset(0);
  return (
    await sql<SearchForm>`select f.* from unnest(${arrayLiteral(ids)}::uuid[]) as i(id) cross join lateral (${forms}) as f`.execute(
      db,
    )
  ).rows;
}

/** Live searches whose match form is missing or retired, by id after `after`. */
export async function findStaleForms(
  db: Kysely<DB>,
  version: string,
  after: string,
  limit: number,
): Promise<SearchForm[]> {
  return (await selectSearchForms(db, version)
    .where('s.id', '>', after)
    .where(sql<boolean>`(s.match_version is distinct from ${version} or s.match_for is distinct from s.updated_at)`)
    .orderBy('s.id')
    .limit(limit)
    .execute()) as SearchForm[];
}

export interface NewMatch {
  saved_search: string;
  /** The event matched, with its listing, type and time (the event row, read and locked by the match job). */
  event: string;
  listing: string;
  event_type: string;
  /** The event's created_at as PostgreSQL's text (exact to the microsecond). */
  event_at: string;
  /** An Instant email is to be sent for it by a delivery job (which marks it `delivered_at`); otherwise it is
   * stored delivered: its notification is written with it. */
  awaits_email: boolean;
}

export interface StoredMatch {
  id: string;
  saved_search: string;
  listing: string;
  event: string;
  event_type: string;
  awaits_email: boolean;
}

/**
 * Stores matches, each (search, event) once, and answers the new ones. The caller holds the events' row locks (the
 * match job), so no one else stores matches of these events meanwhile; an event matched before (its mark reset, so
 * matched again) may meet pairs already stored, which the unique key skips (`on conflict do nothing`). Only then,
 * when fewer rows went in than were sent, are the stored rows looked up by their ids, made here; otherwise nothing
 * is read back. The rows travel as arrays, one statement whatever their number, and are not joined to anything: at
 * ~10,000 rows a job, reading each event again cost 0.4 s (ADR 0030 for the foreign keys this table no longer has).
 * (It used to skip the key check unless `event = any(…) limit 1` found an earlier match of the job's events; on a
 * table without statistics the planner answered that by reading the whole table, 0.27 s a job at 5 million matches,
 * growing with the table, for a check worth ~16 ms of 10,500 rows.)
 */
export async function insertMatches(db: Kysely<DB>, matches: readonly NewMatch[], at: Date): Promise<StoredMatch[]> {
  if (matches.length === 0) return [];
  const rows = matches.map((m) => ({
    id: uuidV7(),
    saved_search: m.saved_search,
    listing: m.listing,
    event: m.event,
    event_type: m.event_type,
    event_at: m.event_at,
    awaits_email: m.awaits_email,
  }));
  const { from, column } = unnestRows(rows, {
    id: 'uuid',
    saved_search: 'uuid',
    listing: 'uuid',
    event: 'uuid',
    event_type: 'text',
    event_at: 'timestamptz',
    awaits_email: 'boolean',
  });
  const values = sql.join((['id', 'saved_search', 'listing', 'event', 'event_type', 'event_at'] as const).map(column));
  const result =
    await sql`insert into saved_search_matches (id, saved_search, listing, event, event_type, event_at, created_at, delivered_at)
    select ${values}, ${at}::timestamptz, case when ${column('awaits_email')} then null else ${at}::timestamptz end
    from ${from}
    on conflict (saved_search, event) do nothing`.execute(db);
  if (Number(result.numAffectedRows) === rows.length) return rows;
  const stored = await db
    .selectFrom('saved_search_matches')
    .select('id')
    .where(sql<boolean>`id = any(${arrayLiteral(rows.map((row) => row.id))}::uuid[])`)
    .execute();
  const ids = new Set(stored.map((row) => row.id));
  return rows.filter((row) => ids.has(row.id));
}
