// Template instances name the deals they were rendered with (docs/templates.md), as they name listings and contacts.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table template_instances add column deals uuid[] not null default '{}'`.execute(db);
}
