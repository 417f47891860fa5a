// SQL of listings: reads for the presenter and for records that point at a listing, and the batch writes of ingest.
import { sql, type ExpressionBuilder, type Kysely, type Selectable, type SelectQueryBuilder } from 'kysely';
import { jsonArrayFrom, jsonObjectFrom } from 'kysely/helpers/postgres';
import { epochSecondsOf, nullableEpochSecondsOf } from '../../db/expressions.js';
import { narrowed } from '../../db/narrow.js';
import { preparedRows } from '../../db/prepared.js';
import type { DB, Narrowed } from '../../db/types.js';
import type { ListingEventType } from './listings.columns.js';
import type { ListingWrite, OpenHouseWrite } from './listings.normalize.js';
import { AGENT_RECORD_COLUMNS, type AgentRow } from '../users/index.js';
import { publiclyDisplayable } from './search/filters.query.js';

/** Every column the record shows: not the tsvectors (large, internal) nor the source hash. */
export const LISTING_COLUMNS = [
  'id',
  'mls',
  'mls_number',
  'status',
  'price',
  'original_price',
  'last_price',
  'close_price',
  'close_date',
  'list_date',
  'currency',
  'office_exclusive',
  'content',
  'list_agent_mui',
  'co_list_agent_mui',
  'co_list_agent2_mui',
  'co_list_agent3_mui',
  'selling_agent_mui',
  'co_selling_agent_mui',
  'co_selling_agent2_mui',
  'co_selling_agent3_mui',
  'list_office_mls_id',
  'co_list_office_mls_id',
  'selling_office_mls_id',
  'co_selling_office_mls_id',
  'list_office_name',
  'property_type',
  'property_subtype',
  'bedroom_count',
  'full_bathroom_count',
  'half_bathroom_count',
  'bathroom_count',
  'square_meters',
  'lot_square_meters',
  'year_built',
  'parking_spaces_covered_total',
  'parking_spaces_uncovered_total',
  'parking_spaces_total',
  'pool',
  'pets',
  'application_fee',
  'appliances',
  'furnished',
  'fenced_yard',
  'number_of_pets_allowed',
  'features',
  'street_number',
  'street_name',
  'unit_number',
  'city',
  'state',
  'postal_code',
  'country',
  'full_address',
  'street_address',
  'location',
  'gallery_image_urls',
  'cover_image_url',
  'open_house_until',
  'created_at',
  'updated_at',
  'deleted_at',
] as const satisfies readonly (keyof DB['listings'])[];

/** An open house as the listing row carries it: times already in epoch seconds (computed in SQL). */
export interface OpenHouseRow {
  start_time: number;
  end_time: number;
  description: string | null;
}
/** What an MLS registry row shows in `mls_info`. */
export type MlsInfoRow = Pick<Selectable<DB['mls_registry']>, 'mls' | 'name' | 'disclaimer' | 'logo_url'>;

/**
 * Related records embedded in the same statement (sub-selects per row: no extra round trip). Each is selected only
 * when asked, so without them the statement is exactly the plain one.
 */
export interface ListingEmbeds {
  listAgent?: boolean;
  sellingAgent?: boolean;
  mlsInfo?: boolean;
  /** `list_agent_brand`: the brand of the Gable user linked to the listing agent (the public listing page's style). */
  listAgentBrand?: boolean;
}

/** A listing as read: its features typed; open houses, and the embeds asked for. */
export type ListingRow = Narrowed<
  Pick<Selectable<DB['listings']>, (typeof LISTING_COLUMNS)[number]>,
  { features: Record<string, string[]> }
> & {
  open_houses: OpenHouseRow[];
  /** Present (agent or null) only when embedded: the agent of the slot, found by (mls, mls_unique_id). */
  list_agent?: AgentRow | null;
  selling_agent?: AgentRow | null;
  mls_info?: MlsInfoRow | null;
  list_agent_brand?: string | null;
};

type ListingsScope = ExpressionBuilder<DB, 'listings'>;

/** The live agent of this MLS with this MLS unique id (the oldest, should a feed have sent duplicates). */
function agentOfSlot(eb: ListingsScope, slot: 'list_agent_mui' | 'selling_agent_mui') {
  return jsonObjectFrom(
    eb
      .selectFrom('agents as a')
      .select(AGENT_RECORD_COLUMNS.map((column) => `a.${column}` as const))
      .select(epochSecondsOf('a.created_at').as('created_at'))
      .select(epochSecondsOf('a.updated_at').as('updated_at'))
      .select(nullableEpochSecondsOf('a.deleted_at').as('deleted_at'))
      .whereRef('a.mls', '=', 'listings.mls')
      .whereRef('a.mls_unique_id', '=', `listings.${slot}`)
      .where('a.deleted_at', 'is', null)
      .orderBy('a.created_at')
      .limit(1),
  );
}

/**
 * The brand of the listing agent: the oldest live membership in a live brand of a user linked to the live agent of
 * list_agent_mui (same MLS). Every lookup is by an index (agents_mui_idx, user_agents_agent_idx, memberships_user_idx).
 */
function listAgentBrand() {
  return sql<string | null>`(select m.brand from agents as a
    join user_agents as ua on ua.agent = a.id
    join memberships as m on m."user" = ua."user" and m.deleted_at is null
    join brands as b on b.id = m.brand and b.deleted_at is null
    where a.mls_unique_id = listings.list_agent_mui and a.mls = listings.mls and a.deleted_at is null
    order by m.created_at, m.brand limit 1)`;
}

type ListingsQuery<O> = SelectQueryBuilder<DB, 'listings', O>;
type EmbeddedColumns = Pick<ListingRow, 'list_agent' | 'selling_agent' | 'mls_info' | 'list_agent_brand'>;

/**
 * Adds the asked-for related records to a query of `listings` as sub-selects (no extra round trip); without any,
 * the statement is exactly the plain one.
 */
export function selectEmbeds<O>(query: ListingsQuery<O>, embed: ListingEmbeds): ListingsQuery<O & EmbeddedColumns> {
  return query
    .$if(embed.listAgent === true, (qb) => qb.select((eb) => agentOfSlot(eb, 'list_agent_mui').as('list_agent')))
    .$if(embed.sellingAgent === true, (qb) =>
      qb.select((eb) => agentOfSlot(eb, 'selling_agent_mui').as('selling_agent')),
    )
    .$if(embed.mlsInfo === true, (qb) =>
      qb.select((eb) =>
        jsonObjectFrom(
          eb
            .selectFrom('mls_registry as r')
            .select(['r.mls', 'r.name', 'r.disclaimer', 'r.logo_url'])
            .whereRef('r.mls', '=', 'listings.mls'),
        ).as('mls_info'),
      ),
    )
    .$if(embed.listAgentBrand === true, (qb) => qb.select(listAgentBrand().as('list_agent_brand'))) as ListingsQuery<
    O & EmbeddedColumns
  >;
}

/**
 * Live (not deleted) listings by id, in no particular order, each with its open houses in start order: one
 * statement for a whole result page. The ids travel as ONE array parameter, so the text is the same for any
 * page size. `embed` adds the asked-for related records as sub-selects of that same statement; `publicOnly` keeps
 * only publicly displayable listings (the anonymous search's rule, search/filters.query.ts).
 */
export async function findListingRows(
  db: Kysely<DB>,
  ids: string[],
  embed: ListingEmbeds = {},
  filter: { publicOnly?: boolean } = {},
): Promise<ListingRow[]> {
  if (ids.length === 0) return [];
  return narrowed<ListingRow[]>(await listingRowsQuery(db, ids, embed, filter).execute());
}

/** The statement of findListingRows, for a caller that runs it as a prepared statement (listings.public.ts). */
export function listingRowsQuery(
  db: Kysely<DB>,
  ids: string[],
  embed: ListingEmbeds = {},
  filter: { publicOnly?: boolean } = {},
) {
  const query = db
    .selectFrom('listings')
    .select(LISTING_COLUMNS)
    .select((eb) =>
      jsonArrayFrom(
        eb
          .selectFrom('listing_open_houses as o')
          .select([
            epochSecondsOf('o.start_time').as('start_time'),
            epochSecondsOf('o.end_time').as('end_time'),
            'o.description',
          ])
          .whereRef('o.listing', '=', 'listings.id')
          .orderBy('o.start_time'),
      ).as('open_houses'),
    )
    .where(sql<boolean>`id = any(${ids}::uuid[])`)
    .where('deleted_at', 'is', null)
    .$if(filter.publicOnly === true, (qb) => qb.where(publiclyDisplayable('listings')));
  return selectEmbeds(query, embed);
}

/** The columns of a listing's summary (listings.lookup.ts). */
export type ListingSummaryRow = Pick<
  Selectable<DB['listings']>,
  'id' | 'mls' | 'mls_number' | 'status' | 'price' | 'full_address' | 'street_address'
>;

/** The live listing with this id, or with this MLS number (in `mls` when given; the newest when several). */
export async function findListingSummaryRow(
  db: Kysely<DB>,
  by: { id: string } | { mls_number: string; mls?: string | null },
): Promise<ListingSummaryRow | undefined> {
  let query = db
    .selectFrom('listings')
    .select(['id', 'mls', 'mls_number', 'status', 'price', 'full_address', 'street_address'])
    .where('deleted_at', 'is', null);
  if ('id' in by) query = query.where('id', '=', by.id);
  else {
    query = query.where('mls_number', '=', by.mls_number).orderBy('updated_at', 'desc').limit(1);
    if (by.mls) query = query.where('mls', '=', by.mls);
  }
  return query.executeTakeFirst();
}

// The batch writes of ingest: a whole batch travels as ONE jsonb parameter and is expanded server-side with
// jsonb_to_recordset, so 1,000 listings are one statement with one bind value (no 65,535-parameter limit, no
// per-row round trip). Every function takes Kysely or a transaction.

/** Columns copied as they are from the JSON row, with their SQL types. */
const PLAIN_COLUMNS: [keyof ListingWrite, string][] = [
  ['mls', 'text'],
  ['mls_number', 'text'],
  ['status', 'text'],
  ['price', 'numeric'],
  ['original_price', 'numeric'],
  ['close_price', 'numeric'],
  ['close_date', 'timestamptz'],
  ['list_date', 'timestamptz'],
  ['currency', 'text'],
  ['office_exclusive', 'boolean'],
  ['content', 'text'],
  ['list_agent_mui', 'text'],
  ['co_list_agent_mui', 'text'],
  ['co_list_agent2_mui', 'text'],
  ['co_list_agent3_mui', 'text'],
  ['selling_agent_mui', 'text'],
  ['co_selling_agent_mui', 'text'],
  ['co_selling_agent2_mui', 'text'],
  ['co_selling_agent3_mui', 'text'],
  ['list_office_mls_id', 'text'],
  ['co_list_office_mls_id', 'text'],
  ['selling_office_mls_id', 'text'],
  ['co_selling_office_mls_id', 'text'],
  ['list_office_name', 'text'],
  ['agent_muis', 'text[]'],
  ['office_mls_ids', 'text[]'],
  ['property_type', 'text'],
  ['property_subtype', 'text'],
  ['bedroom_count', 'integer'],
  ['full_bathroom_count', 'integer'],
  ['half_bathroom_count', 'integer'],
  ['bathroom_count', 'numeric'],
  ['square_meters', 'double precision'],
  ['lot_square_meters', 'double precision'],
  ['year_built', 'integer'],
  ['parking_spaces_covered_total', 'integer'],
  ['parking_spaces_uncovered_total', 'integer'],
  ['parking_spaces_total', 'integer'],
  ['pool', 'boolean'],
  ['pets', 'boolean'],
  ['application_fee', 'boolean'],
  ['appliances', 'boolean'],
  ['furnished', 'boolean'],
  ['fenced_yard', 'boolean'],
  ['number_of_pets_allowed', 'integer'],
  ['features', 'jsonb'],
  ['street_number', 'text'],
  ['street_name', 'text'],
  ['unit_number', 'text'],
  ['city', 'text'],
  ['state', 'text'],
  ['postal_code', 'text'],
  ['country', 'text'],
  ['full_address', 'text'],
  ['street_address', 'text'],
  ['gallery_image_urls', 'text[]'],
  ['cover_image_url', 'text'],
  ['open_house_until', 'timestamptz'],
  ['source_hash', 'text'],
];

/**
 * Text parsing is most of the upsert's CPU, so each text is parsed once: the address and remarks vectors are
 * computed in an inner query (`offset 0` keeps the planner from inlining it, which would parse them twice) and
 * `search_tsv` concatenates them with the identifiers.
 */
const VECTORS =
  sql.raw(`to_tsvector('english', concat_ws(' ', r.full_address, r.street_address, r.city, r.state, r.postal_code)) as address_vector,
  to_tsvector('english', coalesce(r.content, '')) as content_vector`);

/** Columns computed in SQL from the row (r.*): the point and the three text-search vectors. */
const COMPUTED: [string, string][] = [
  ['location', `case when r.longitude is null or r.latitude is null then null else point(r.longitude, r.latitude) end`],
  ['address_tsv', 'r.address_vector'],
  ['content_tsv', 'r.content_vector'],
  // what the free-text `search` criterion sees: identifiers, property type, address and remarks
  [
    'search_tsv',
    `to_tsvector('english', concat_ws(' ', r.mls_number, r.property_type, r.property_subtype)) || r.address_vector || r.content_vector`,
  ],
];

const RECORDSET = [
  ...PLAIN_COLUMNS.map(([name, type]) => `${name} ${type}`),
  'last_price numeric',
  'longitude double precision',
  'latitude double precision',
].join(', ');
const INSERT_COLUMNS = [
  ...PLAIN_COLUMNS.map(([name]) => name),
  'last_price',
  ...COMPUTED.map(([name]) => name),
  'created_at',
  'updated_at',
];
const SELECT_VALUES = [
  ...PLAIN_COLUMNS.map(([name]) => `r.${name}`),
  'r.last_price',
  ...COMPUTED.map(([, expression]) => expression),
];
const UPDATES = [
  ...PLAIN_COLUMNS.filter(([name]) => name !== 'mls' && name !== 'mls_number').map(
    ([name]) => `${name} = excluded.${name}`,
  ),
  ...COMPUTED.map(([name]) => `${name} = excluded.${name}`),
  // last_price: the feed's value, else the price before this change (kept while the price stays)
  `last_price = coalesce(excluded.last_price, case when listings.price is distinct from excluded.price then listings.price else listings.last_price end)`,
  'updated_at = excluded.updated_at',
  'deleted_at = null',
];

// SQL text built once from the constant lists above: user data only ever travels as bind parameters.
const INSERT_HEAD = sql.raw(`insert into listings (${INSERT_COLUMNS.join(', ')}) select ${SELECT_VALUES.join(', ')}`);
const RECORDSET_TYPE = sql.raw(`r(${RECORDSET})`);
const ON_CONFLICT = sql.raw(`on conflict (mls, mls_number) do update set ${UPDATES.join(', ')}
  where listings.source_hash is distinct from excluded.source_hash or listings.deleted_at is not null
  returning id, mls_number, (xmax = 0) as inserted`);

export interface StoredState {
  id: string;
  mls_number: string;
  status: string;
  price: number | null;
  deleted_at: Date | null;
}

/**
 * The current state of the listings this batch will change, locked until the transaction ends (events compare
 * against it). Rows whose stored hash equals the incoming one are neither locked nor returned: the upsert
 * will skip them, and locking a row is a write.
 */
export async function lockChanging(
  db: Kysely<DB>,
  mls: string,
  incoming: { mls_number: string; source_hash: string }[],
): Promise<Map<string, StoredState>> {
  // Sorted, so two concurrent batches lock shared rows in the same order (no deadlock).
  const sorted = [...incoming].sort((a, b) => (a.mls_number < b.mls_number ? -1 : a.mls_number > b.mls_number ? 1 : 0));
  const { rows } = await sql<StoredState>`select l.id, l.mls_number, l.status, l.price, l.deleted_at
    from unnest(${sorted.map((row) => row.mls_number)}::text[], ${sorted.map((row) => row.source_hash)}::text[]) with ordinality as i(mls_number, source_hash, position)
    join listings l on l.mls = ${mls} and l.mls_number = i.mls_number
    where l.source_hash is distinct from i.source_hash or l.deleted_at is not null
    order by i.position
    for update of l`.execute(db);
  return new Map(rows.map((row) => [row.mls_number, row]));
}

export interface UpsertedRow {
  id: string;
  mls_number: string;
  inserted: boolean;
}

/** Inserts or updates the rows; identical rows (same source hash) are neither written nor returned. */
export async function upsertListings(db: Kysely<DB>, rows: ListingWrite[], now: Date): Promise<UpsertedRow[]> {
  if (rows.length === 0) return [];
  const { rows: upserted } = await sql<UpsertedRow>`${INSERT_HEAD}, ${now}::timestamptz, ${now}::timestamptz
    from (select r.*, ${VECTORS} from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as ${RECORDSET_TYPE} offset 0) as r
    ${ON_CONFLICT}`.execute(db);
  return upserted;
}

/** Deletes the open houses of `listingIds` (listings that changed) and inserts `houses` (of any listing). */
export async function replaceOpenHouses(
  db: Kysely<DB>,
  listingIds: string[],
  houses: (OpenHouseWrite & { listing: string })[],
): Promise<void> {
  if (listingIds.length > 0)
    await sql`delete from listing_open_houses where listing = any(${listingIds}::uuid[])`.execute(db);
  if (houses.length === 0) return;
  await sql`insert into listing_open_houses (listing, start_time, end_time, description)
    select r.listing, r.start_time, r.end_time, r.description
    from jsonb_to_recordset(${JSON.stringify(houses)}::jsonb) as r(listing uuid, start_time timestamptz, end_time timestamptz, description text)`.execute(
    db,
  );
}

export interface NewListingEvent {
  listing: string;
  type: ListingEventType;
  old_status: string | null;
  new_status: string | null;
  old_price: number | null;
  new_price: number | null;
}

/** Records the events; returns their ids (saved-search matching is enqueued with them). */
export async function insertEvents(db: Kysely<DB>, events: NewListingEvent[], now: Date): Promise<string[]> {
  if (events.length === 0) return [];
  const rows = await db
    .insertInto('listing_events')
    .values(events.map((event) => ({ ...event, created_at: now })))
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

/** What an alert email's card of a listing shows (saved searches, delivery.email.ts). */
const LISTING_CARD_COLUMNS = [
  'id',
  'mls',
  'mls_number',
  'status',
  'price',
  'original_price',
  'close_price',
  'currency',
  'bedroom_count',
  'bathroom_count',
  'square_meters',
  'lot_square_meters',
  'year_built',
  'street_address',
  'full_address',
  'city',
  'state',
  'cover_image_url',
] as const satisfies readonly (keyof DB['listings'])[];

export type ListingCardRow = Pick<Selectable<DB['listings']>, (typeof LISTING_CARD_COLUMNS)[number]> & {
  first_photo: string | null;
};

/** The ids travel as one array, so the statement has one text (and one plan) whatever their number. */
function listingCardRowsQuery(db: Kysely<DB>, ids: readonly string[]) {
  return db
    .selectFrom('listings')
    .select(LISTING_CARD_COLUMNS)
    .select(sql<string | null>`gallery_image_urls[1]`.as('first_photo'))
    .where(sql<boolean>`id = any(${ids}::uuid[])`)
    .where('deleted_at', 'is', null);
}

/** Live listings by id, in no particular order, with what an alert email's card shows (and the first photo). */
export async function findListingCardRows(db: Kysely<DB>, ids: readonly string[]): Promise<ListingCardRow[]> {
  return await listingCardRowsQuery(db, ids).execute();
}

/** Matched by identity: the ids travel as this array's place in the statement. */
const CARD_IDS_STAND_IN: readonly string[] = ['00000000-0000-0000-0000-000000000000'];

/**
 * `findListingCardRows` as a named prepared statement on a pooled connection (no transaction): for the alert
 * results page, which reads 24 cards per view and would otherwise plan the read each time (~0.5 ms).
 */
export const findListingCardRowsPrepared = preparedRows(
  'listings.card-rows',
  [CARD_IDS_STAND_IN] as const,
  (db, ids: readonly string[]) => listingCardRowsQuery(db, ids),
);
