// SQL of listings: reads for the presenter, and the batch writes of ingest (listings.writes.ts holds the upsert).
import { sql, type ExpressionBuilder, type Kysely, type Selectable, type SelectQueryBuilder } from 'kysely';
import { jsonArrayFrom, jsonObjectFrom } from 'kysely/helpers/postgres';
import { epochSecondsOf } from '../../db/expressions.js';
import { narrowed } from '../../db/narrow.js';
import type { DB, Narrowed } from '../../db/types.js';
import { AGENT_RECORD_COLUMNS, type AgentRow } from '../users/agents.record.js';

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
      .select(sql<number | null>`${epochSecondsOf('a.deleted_at')}`.as('deleted_at'))
      .whereRef('a.mls', '=', 'listings.mls')
      .whereRef('a.mls_unique_id', '=', `listings.${slot}`)
      .where('a.deleted_at', 'is', null)
      .orderBy('a.created_at')
      .limit(1),
  );
}

type ListingsQuery<O> = SelectQueryBuilder<DB, 'listings', O>;

/**
 * Adds the asked-for related records to a query of `listings` as sub-selects (no extra round trip); without any,
 * the statement is exactly the plain one.
 */
export function selectEmbeds<O>(
  query: ListingsQuery<O>,
  embed: ListingEmbeds,
): ListingsQuery<O & Pick<ListingRow, 'list_agent' | 'selling_agent' | 'mls_info'>> {
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
    ) as ListingsQuery<O & Pick<ListingRow, 'list_agent' | 'selling_agent' | 'mls_info'>>;
}

/**
 * Live (not deleted) listings by id, in no particular order, each with its open houses in start order: one
 * statement for a whole result page. The ids travel as ONE array parameter, so the text is the same for any
 * page size. `embed` adds the asked-for related records as sub-selects of that same statement.
 */
export async function findListingRows(db: Kysely<DB>, ids: string[], embed: ListingEmbeds = {}): Promise<ListingRow[]> {
  if (ids.length === 0) return [];
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
    .where('deleted_at', 'is', null);
  return narrowed<ListingRow[]>(await selectEmbeds(query, embed).execute());
}
