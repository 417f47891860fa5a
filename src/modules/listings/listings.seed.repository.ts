// SQL of synthetic seeding: the agent pool, links to existing users, boundary sampling support.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { boundaryContainsPoint } from '../boundaries/index.js';

export interface SeedAgent {
  mlsid: string;
  mls_unique_id: string;
  first_name: string;
  last_name: string;
  office_mlsid: string;
  email: string;
  phone_number: string;
}

/** Inserts the agents that are not there yet (unique by mls, mlsid); returns the ids of the whole pool. */
export async function upsertAgentPool(db: Kysely<DB>, mls: string, agents: SeedAgent[]): Promise<string[]> {
  const rows = agents.map((agent) => ({
    mls,
    mlsid: agent.mlsid,
    mls_unique_id: agent.mls_unique_id,
    first_name: agent.first_name,
    last_name: agent.last_name,
    full_name: `${agent.first_name} ${agent.last_name}`,
    email: agent.email,
    phone_number: agent.phone_number,
    office_mlsid: agent.office_mlsid,
    office_mui: agent.office_mlsid,
  }));
  for (let i = 0; i < rows.length; i += 1000) {
    await db
      .insertInto('agents')
      .values(rows.slice(i, i + 1000) as never)
      .onConflict((oc) => oc.columns(['mls', 'mlsid']).doNothing())
      .execute();
  }
  const ids = await db
    .selectFrom('agents')
    .select('id')
    .where('mls', '=', mls)
    .where(
      'mlsid',
      'in',
      agents.map((agent) => agent.mlsid),
    )
    .orderBy('mlsid')
    .execute();
  return ids.map((row) => row.id);
}

/** Links up to `agentIds.length` live users that have no agent yet, one agent each (oldest users first). */
export async function linkUsersWithoutAgent(db: Kysely<DB>, agentIds: string[]): Promise<number> {
  if (agentIds.length === 0) return 0;
  const users = await db
    .selectFrom('users')
    .select('id')
    .where('deleted_at', 'is', null)
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom('user_agents').select('agent').whereRef('user_agents.user', '=', 'users.id'))),
    )
    .orderBy('created_at')
    .orderBy('id')
    .limit(agentIds.length)
    .execute();
  if (users.length === 0) return 0;
  await db
    .insertInto('user_agents')
    .values(users.map((user, i) => ({ user: user.id, agent: agentIds[i]! })))
    .onConflict((oc) => oc.doNothing())
    .execute();
  return users.length;
}

/**
 * A synthetic agent that belongs to a user is that user in the roster: their name, email and phone, as a real MLS
 * roster has them. Clients that map `list_agent.id` to their synced users (the WordPress plugin) would otherwise
 * name the user on a listing whose agent record names someone else. Only the pool's agents are touched (never a
 * real feed's), and only where they differ, so a re-run writes nothing.
 */
export async function agentsCarryTheirUsers(db: Kysely<DB>, agentIds: string[], now: Date): Promise<void> {
  if (agentIds.length === 0) return;
  await sql`
    update agents as a
    set first_name = u.first_name, last_name = u.last_name, full_name = trim(u.first_name || ' ' || u.last_name),
      email = u.email, phone_number = u.phone_number, updated_at = ${now}
    from user_agents as ua join users as u on u.id = ua."user"
    where ua.agent = a.id and a.id = any(${agentIds}::uuid[])
      and (a.first_name, a.last_name, a.email, a.phone_number)
        is distinct from (u.first_name, u.last_name, u.email, u.phone_number)`.execute(db);
}

export interface SeedBoundary {
  id: string;
  title: string;
  boundary_type: string;
  state: string | null;
  /** Bounding box of its outer rings (x = longitude, y = latitude). */
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** A boundary by id or (case-insensitive) title, largest population first when a title is ambiguous. */
export async function findSeedBoundary(db: Kysely<DB>, idOrTitle: string): Promise<SeedBoundary | undefined> {
  const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrTitle);
  const { rows } = await sql<SeedBoundary>`
    select b.id, coalesce(b.overridden_title, b.title) as title, b.boundary_type, b.state,
      -- a box is stored (upper right, lower left)
      min((r.box[1])[0]) as "minX", min((r.box[1])[1]) as "minY", max((r.box[0])[0]) as "maxX", max((r.box[0])[1]) as "maxY"
    from boundaries b join boundary_rings r on r.boundary = b.id and not r.is_hole
    where b.deleted_at is null and ${isUuid ? sql`b.id = ${idOrTitle}::uuid` : sql`lower(coalesce(b.overridden_title, b.title)) = lower(${idOrTitle})`}
    group by b.id
    order by b.population desc nulls last, b.id
    limit 1`.execute(db);
  return rows[0];
}

/** Which of these candidate points lie inside the boundary (holes honoured): their positions in the input. */
export async function pointsInside(
  db: Kysely<DB>,
  boundary: string,
  points: { x: number; y: number }[],
): Promise<number[]> {
  if (points.length === 0) return [];
  const { rows } = await sql<{ i: number }>`
    select (c.ordinality - 1)::int as i
    from unnest(${points.map((p) => p.x)}::float8[], ${points.map((p) => p.y)}::float8[]) with ordinality as c(x, y, ordinality)
    where ${boundaryContainsPoint([boundary], sql`point(c.x, c.y)`)}
    order by c.ordinality`.execute(db);
  return rows.map((row) => row.i);
}

export async function countListings(db: Kysely<DB>): Promise<number> {
  const row = await db
    .selectFrom('listings')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
