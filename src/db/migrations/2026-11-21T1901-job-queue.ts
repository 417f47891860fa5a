// pg-boss's own tables, created with the rest of the schema so a migrated database (and every test
// database cloned from one) is ready to enqueue. pg-boss upgrades its schema itself on start afterwards.
import { sql, type Kysely } from 'kysely';
import PgBoss from 'pg-boss';
import { QUEUE_SCHEMA } from '../../jobs/queue.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(PgBoss.getConstructionPlans(QUEUE_SCHEMA)).execute(db);
}
