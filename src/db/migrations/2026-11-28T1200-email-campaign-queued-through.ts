// A campaign is queued in chunks, each its own transaction (emails.send.ts, ADR 0039): the key of the last
// recipient queued, so a retried job goes on after it instead of queueing anyone twice. Null until the first chunk.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table email_campaigns add column queued_through text`.execute(db);
}
