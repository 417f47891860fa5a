// Match forms stored with each saved search (issue 12, matching speed; ADR 0034, docs/saved-searches.md "Matching").
// A match job confirmed each candidate search with the engine's compiled WHERE, compiled in the job: ~5,000 searches
// per job of 500 events at 100,000 searches, 250–540 ms of a ~1.2 s job in a new worker (a per-process cache helped
// only once a worker had seen every search, and never for searches naming brands or boundaries). The compiled WHERE
// now depends on the criteria alone (the engine reads brands' agents and boundaries' boxes by subqueries when it is
// evaluated) and is stored when the search is written: its shape (the SQL text, shared: a few dozen texts for
// 100,000 searches) in saved_search_shapes, its bind values with the search. `match_version` names the engine that
// compiled it and `match_for` the search's `updated_at` it was compiled for: a form is used only when both are
// current, otherwise the match job compiles it again (searches existing before this migration included). Shapes are
// content-addressed (id = digest of the text) and never deleted, so the search rows carry no foreign key to them.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table saved_search_shapes (
      id uuid primary key,
      text text not null,
      -- positions (0-based) of the values that are the matching time ("now": open houses)
      now_params int[] not null default '{}',
      created_at timestamptz not null default now()
    );
    alter table saved_searches
      add column match_shape uuid,
      add column match_values jsonb,
      add column match_version text,
      add column match_for timestamptz;
  `.execute(db);
}
