// Statements of listing search that read outside the listings table before a search compiles: the agents of the
// brands a search names. (The search statement itself is search.query.ts's; its predicates are search.filters.ts's.)
// It joins the brands module's memberships to the users module's agents on the search's hot path, in one statement,
// so it stays here rather than going through those modules' faces.
import { sql, type Expression, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../../../db/types.js';

/** mls_unique_id of the agents linked to live members of these brands. */
export async function findAgentMuisOfBrands(db: Kysely<DB>, brandIds: string[]): Promise<string[]> {
  const { rows } = await agentsOfBrandsQuery(sql`${brandIds}::uuid[]`).execute(db);
  return rows.map((row) => row.mls_unique_id);
}

/** The statement of findAgentMuisOfBrands for a uuid[] expression (a constant for a run, a subquery for matching). */
export function agentsOfBrandsQuery(brandIds: Expression<string[]>): RawBuilder<{ mls_unique_id: string }> {
  return sql<{ mls_unique_id: string }>`select distinct a.mls_unique_id
    from memberships as m join user_agents as ua on ua."user" = m."user" join agents as a on a.id = ua.agent
    where m.brand = any(${brandIds}) and m.deleted_at is null and a.deleted_at is null`;
}
