// Job workers wake when a job is ready instead of polling for one (src/jobs/wake.ts, issue 36): the transaction
// that makes a job ready — enqueued, or set to retry — NOTIFYs `gable_jobs` with the task's name, or with the name
// and " later" when the job starts later (a delayed job, a retry's back-off), and every worker process LISTENs.
// Row triggers on pg-boss's partitioned job table are cloned onto every queue's partition, present and future;
// NOTIFY folds identical notices of one transaction into one, so a batch of a thousand jobs notifies once.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function pgboss.gable_job_ready() returns trigger language plpgsql as $$
    begin
      perform pg_notify('gable_jobs', case when new.start_after <= now() then new.name else new.name || ' later' end);
      return null;
    end $$
  `.execute(db);
  await sql`
    create trigger gable_job_inserted after insert on pgboss.job
    for each row execute function pgboss.gable_job_ready()
  `.execute(db);
  await sql`
    create trigger gable_job_retried after update of state on pgboss.job
    for each row when (new.state = 'retry') execute function pgboss.gable_job_ready()
  `.execute(db);
}
