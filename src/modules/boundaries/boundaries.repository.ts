// All SQL of the boundaries catalogue. Every function takes Kysely<DB> or a transaction.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { boundaryContainsPoint, type ContainmentRing } from './containment.query.js';
import type { PreparedBoundary } from './boundaries.model.js';

export interface BoundaryRow {
  id: string;
  external_id: string;
  boundary_type: string;
  title: string;
  overridden_title: string | null;
  country: string | null;
  state: string | null;
  subtitle: string;
  aliases: string;
  population: number | null;
  /** absent when the caller asked not to load it */
  geometry?: unknown;
  lon: number;
  lat: number;
  searchable: string;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

export interface BoundarySearchFilters {
  /** `to_tsquery('simple', …)` text from prefixTsQuery, or null for no text filter */
  tsQuery: string | null;
  /** normalized q, for the exact / starts-with rank bonus */
  normalizedQ: string | null;
  boundaryType?: string | undefined;
  country?: string | undefined;
  state?: string | undefined;
  start: number;
  limit: number;
  withGeometry: boolean;
}

const BOUNDARIES_PER_STATEMENT = 200;
const RINGS_PER_STATEMENT = 1000;
// Larger areas first among equally relevant matches of unknown or equal population (countries, territories).
const TYPE_ORDER = sql`array_position(array['country', 'state', 'county', 'city', 'postal_code', 'neighborhood'], boundaries.boundary_type)`;

function selectBoundaries(db: Kysely<DB>, withGeometry: boolean) {
  return db
    .selectFrom('boundaries')
    .select([
      'id',
      'external_id',
      'boundary_type',
      'title',
      'overridden_title',
      'country',
      'state',
      'subtitle',
      'aliases',
      'population',
      'created_at',
      'updated_at',
      'deleted_at',
    ])
    .select([
      sql<number>`boundaries.center[0]`.as('lon'),
      sql<number>`boundaries.center[1]`.as('lat'),
      sql<string>`boundaries.searchable::text`.as('searchable'),
    ])
    .$if(withGeometry, (query) => query.select('geometry'))
    .where('deleted_at', 'is', null);
}

export async function findBoundary(db: Kysely<DB>, id: string): Promise<BoundaryRow | undefined> {
  return (await selectBoundaries(db, true).where('id', '=', id).executeTakeFirst()) as BoundaryRow | undefined;
}

export async function searchBoundaries(
  db: Kysely<DB>,
  filters: BoundarySearchFilters,
): Promise<{ rows: BoundaryRow[]; total: number }> {
  const { tsQuery, normalizedQ } = filters;
  const filtered = <Q extends ReturnType<typeof selectBoundaries>>(query: Q) =>
    query
      .$if(!!filters.boundaryType, (q) => q.where('boundary_type', '=', filters.boundaryType!))
      .$if(!!filters.country, (q) => q.where(sql<boolean>`upper(boundaries.country) = upper(${filters.country!})`))
      .$if(!!filters.state, (q) => q.where(sql<boolean>`lower(boundaries.state) = lower(${filters.state!})`))
      .$if(tsQuery !== null, (q) =>
        q.where(sql<boolean>`boundaries.searchable @@ to_tsquery('simple', ${tsQuery})`),
      ) as Q;
  // Text rank, plus a bonus when q is the whole title or a code (1) or starts the title (0.5), so "Texas" ranks the
  // state before "Texas County" and "TX" finds Texas first.
  // (Without q there is no rank: ORDER BY 0 would mean "column 0".)
  const rank =
    tsQuery === null
      ? null
      : sql<number>`ts_rank(boundaries.searchable, to_tsquery('simple', ${tsQuery}))
          + case when boundaries.search_key = ${normalizedQ} or ${normalizedQ} = any(boundaries.codes) then 1
                 when starts_with(boundaries.search_key, ${normalizedQ}) then 0.5 else 0 end`;
  const rows = await filtered(selectBoundaries(db, filters.withGeometry))
    .select(sql<number>`count(*) over ()`.as('total'))
    .$if(rank !== null, (q) => q.orderBy(rank!, 'desc'))
    .orderBy(sql`boundaries.population desc nulls last`)
    .orderBy(TYPE_ORDER)
    .orderBy('title')
    .orderBy('subtitle')
    .orderBy('id')
    .limit(filters.limit)
    .offset(filters.start)
    .execute();
  if (rows.length > 0 || filters.start === 0)
    return { rows: rows as BoundaryRow[], total: Number(rows[0]?.total ?? 0) };
  // Paged past the end: the window count has no row to ride on.
  const counted = await filtered(selectBoundaries(db, false))
    .clearSelect()
    .select(sql<number>`count(*)`.as('total'))
    .executeTakeFirst();
  return { rows: [], total: Number(counted?.total ?? 0) };
}

export async function countBoundaries(db: Kysely<DB>): Promise<number> {
  const row = await db
    .selectFrom('boundaries')
    .select(sql<number>`count(*)`.as('n'))
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** True when the point (lon, lat) lies in any of the boundaries (holes honoured, edges inclusive). */
export async function containsPoint(
  db: Kysely<DB>,
  boundaryIds: readonly string[],
  lon: number,
  lat: number,
): Promise<boolean> {
  const point = sql`point(${lon}::float8, ${lat}::float8)`;
  const row = await db.selectNoFrom(boundaryContainsPoint(boundaryIds, point).as('inside')).executeTakeFirstOrThrow();
  return row.inside;
}

/**
 * Polygon points of a search's boundaries sent as constants (ringsContainPoint); the rings beyond are read by the
 * statement itself. A county is at most ~2,000 points; 5,000 keep the parameters under ~200 KB.
 */
export const INLINE_RING_POINTS = 5000;

/** The rings of these boundaries for ringsContainPoint: boxes always, polygons while the total stays in budget. */
export async function containmentRings(
  db: Kysely<DB>,
  boundaryIds: readonly string[],
  inlinePoints = INLINE_RING_POINTS,
): Promise<ContainmentRing[]> {
  if (boundaryIds.length === 0) return [];
  const { rows } = await sql<{
    boundary: string;
    polygon_index: number;
    ring_index: number;
    is_hole: boolean;
    box: string;
    polygon: string | null;
  }>`
    select boundary, polygon_index, ring_index, is_hole, box::text as box,
      case when sum(npoints(polygon)) over (order by boundary, polygon_index, ring_index) <= ${inlinePoints}::int then polygon::text end as polygon
    from boundary_rings where boundary = any(${[...boundaryIds]}::uuid[])
    order by boundary, polygon_index, ring_index`.execute(db);
  return rows.map((row) => ({
    boundary: row.boundary,
    polygonIndex: row.polygon_index,
    ringIndex: row.ring_index,
    isHole: row.is_hole,
    box: row.box,
    polygon: row.polygon,
  }));
}

/** The live boundaries among these ids with their titles (a search's criteria name them; unknown ids are absent). */
export async function findLiveBoundaryTitles(
  db: Kysely<DB>,
  ids: string[],
): Promise<{ id: string; title: string; overridden_title: string | null }[]> {
  return db
    .selectFrom('boundaries')
    .select(['id', 'title', 'overridden_title'])
    .where('id', 'in', ids)
    .where('deleted_at', 'is', null)
    .execute();
}

/** Fresh planner statistics after a bulk load: without them the first searches on a new catalogue get poor plans. */
export async function analyzeBoundaries(db: Kysely<DB>): Promise<void> {
  await sql`analyze boundaries, boundary_rings`.execute(db);
}

/** Insert or update by external_id (an operator's overridden_title is kept) and replace the rings. */
export async function upsertBoundaries(
  db: Kysely<DB>,
  boundaries: readonly PreparedBoundary[],
  onProgress?: (written: number) => void,
): Promise<number> {
  let written = 0;
  for (let i = 0; i < boundaries.length; i += BOUNDARIES_PER_STATEMENT) {
    const batch = boundaries.slice(i, i + BOUNDARIES_PER_STATEMENT);
    const saved = await db
      .insertInto('boundaries')
      .values(
        batch.map((b) => ({
          external_id: b.externalId,
          boundary_type: b.boundaryType,
          title: b.title,
          overridden_title: null,
          country: b.country,
          state: b.state,
          subtitle: b.subtitle,
          aliases: b.aliases,
          codes: b.codes,
          population: b.population,
          center: sql<string>`point(${b.center[0]}::float8, ${b.center[1]}::float8)`,
          geometry: sql<string>`${JSON.stringify(b.geometry)}::jsonb`,
          search_key: b.searchKey,
          searchable: sql<string>`setweight(to_tsvector('simple', ${b.searchA}), 'A') || setweight(to_tsvector('simple', ${b.searchB}), 'B')`,
          deleted_at: null,
        })),
      )
      .onConflict((oc) =>
        oc.column('external_id').doUpdateSet((eb) => ({
          boundary_type: eb.ref('excluded.boundary_type'),
          title: eb.ref('excluded.title'),
          country: eb.ref('excluded.country'),
          state: eb.ref('excluded.state'),
          subtitle: eb.ref('excluded.subtitle'),
          aliases: eb.ref('excluded.aliases'),
          codes: eb.ref('excluded.codes'),
          // a row loaded without a population (the shipped data) keeps the one `import populations` gave it
          population: sql<number | null>`coalesce(excluded.population, boundaries.population)`,
          center: eb.ref('excluded.center'),
          geometry: eb.ref('excluded.geometry'),
          search_key: eb.ref('excluded.search_key'),
          searchable: eb.ref('excluded.searchable'),
          updated_at: sql<string>`now()`,
          deleted_at: null,
        })),
      )
      .returning(['id', 'external_id'])
      .execute();
    const idByExternalId = new Map(saved.map((row) => [row.external_id, row.id]));
    await db
      .deleteFrom('boundary_rings')
      .where('boundary', 'in', [...idByExternalId.values()])
      .execute();
    const rings = batch.flatMap((b) =>
      b.rings.map((ring) => ({
        boundary: idByExternalId.get(b.externalId)!,
        polygon_index: ring.polygonIndex,
        ring_index: ring.ringIndex,
        is_hole: ring.isHole,
        polygon: sql<string>`${ring.polygon}::polygon`,
        box: sql<string>`${ring.box}::box`,
      })),
    );
    for (let j = 0; j < rings.length; j += RINGS_PER_STATEMENT) {
      await db
        .insertInto('boundary_rings')
        .values(rings.slice(j, j + RINGS_PER_STATEMENT))
        .execute();
    }
    written += batch.length;
    onProgress?.(written);
  }
  return written;
}

/**
 * Sets the population of each live boundary whose external id is given, in one statement (the two arrays are
 * parallel); with `onlyUnknown`, only where none is known yet. Answers the external ids it set.
 */
export async function setBoundaryPopulations(
  db: Kysely<DB>,
  externalIds: string[],
  populations: number[],
  options: { onlyUnknown: boolean },
): Promise<string[]> {
  const result = await sql<{ external_id: string }>`
      update boundaries set population = given.population, updated_at = now()
      from unnest(${externalIds}::text[], ${populations}::bigint[]) as given(external_id, population)
      where boundaries.external_id = given.external_id and boundaries.deleted_at is null
        and (${!options.onlyUnknown}::boolean or boundaries.population is null)
      returning boundaries.external_id`.execute(db);
  return result.rows.map((row) => row.external_id);
}

/** Whether a live boundary among these external ids has no population yet. */
export async function hasBoundaryWithoutPopulation(db: Kysely<DB>, externalIds: readonly string[]): Promise<boolean> {
  const row = await sql<{ lacking: boolean }>`
    select exists (select 1 from boundaries where external_id = any(${externalIds}::text[]) and population is null and deleted_at is null) as lacking`.execute(
    db,
  );
  return row.rows[0]?.lacking ?? false;
}
