// Cron tasks tick by the worker processes' own ticker (src/jobs/cron-ticker.ts) instead of pg-boss's timekeeper.
// The schedules the timekeeper kept are dropped: a worker of the previous version still running in a rolling
// deploy reads them every tick, so with them gone it stops sending cron jobs as soon as this migration commits,
// and no minute gets its jobs from both versions. The timekeeper's own queue (`__pgboss__send-it`) is left as it
// is: deleting it races with such a worker still moving a tick through it, and its last jobs age out anyway.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`delete from pgboss.schedule`.execute(db);
}
