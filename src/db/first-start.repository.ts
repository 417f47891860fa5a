// SQL of the first-start ledger (src/bootstrap.ts).
import type { Kysely } from 'kysely';
import type { DB } from './types.js';

export async function findStep(db: Kysely<DB>, name: string) {
  return db
    .selectFrom('first_start_steps')
    .select(['name', 'started_at', 'completed_at'])
    .where('name', '=', name)
    .executeTakeFirst();
}

export async function startStep(db: Kysely<DB>, name: string, at: Date): Promise<void> {
  await db
    .insertInto('first_start_steps')
    .values({ name, started_at: at })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}

/** Completed (also for a step that was not needed: it never runs later). */
export async function completeStep(db: Kysely<DB>, name: string, at: Date): Promise<void> {
  await db
    .insertInto('first_start_steps')
    .values({ name, started_at: at, completed_at: at })
    .onConflict((oc) => oc.column('name').doUpdateSet({ completed_at: at }))
    .execute();
}
