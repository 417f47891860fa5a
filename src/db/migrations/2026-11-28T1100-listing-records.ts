// Each listing's record kept as JSON text, written by ingest beside the listing (listings.stored-record.ts): a
// search page then reads one text per listing and splices in days on market, instead of reading ~60 columns,
// building the record and serializing it again on every request (docs/listing-search.md, ADR 0037). A separate
// table keeps the listings heap, which the search and matching statements read, as narrow as before.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table listing_records (
      listing uuid primary key references listings(id) on delete cascade,
      version text not null,
      listing_updated_at timestamptz not null,
      record text not null
    );
    -- The refresh task finds the texts of another version (a deploy changed the record) through this index,
    -- without reading the tables.
    create index listing_records_version_idx on listing_records (version);
    -- The listings already stored get a placeholder of no version the code ever computes: the refresh task (run
    -- when a worker starts) writes their texts, and until then they are presented from their columns.
    insert into listing_records (listing, version, listing_updated_at, record)
      select id, 'unwritten', updated_at, '' from listings where deleted_at is null;
  `.execute(db);
  // The texts (~5 kB of JSON) are compressed in place. lz4 writes them faster than the default pglz and reads them
  // several times faster; a server built without it (the embedded one) keeps pglz.
  await sql`
    do $$ begin
      alter table listing_records alter column record set compression lz4;
    exception when feature_not_supported then null;
    end $$;
  `.execute(db);
}
