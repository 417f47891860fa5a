// The anonymous search's rule (publicly displayable: a public status and not office-exclusive) tests
// `office_exclusive`, which the covering index of map searches did not carry: every public map search (the alert
// results page, GET /a/:token) fetched one heap page per match to read it (4,000 matches in a 5 km square of
// 1,000,000 listings: 78 ms). With it included the public search is index-only like the authenticated one
// (docs/listing-search.md "Indexes", docs/public-pages.md "Speed").
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists listings_search_location_idx`.execute(db);
  await sql`
    create index listings_search_location_idx on listings using gist (location)
      include (id, price, currency, status, office_exclusive, bedroom_count, bathroom_count, square_meters,
               lot_square_meters, year_built, list_date, close_price, close_date)
      where deleted_at is null;
  `.execute(db);
}
