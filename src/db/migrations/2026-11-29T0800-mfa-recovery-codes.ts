// MFA recovery codes (issue 33 item 5, decisions §22, docs/oauth.md "Recovery codes"): ten single-use codes per user,
// handed out once when MFA is enabled or the codes are regenerated. Only the SHA-256 of each code is kept (the codes
// carry 80 random bits, beyond guessing, so an unsalted hash is enough); using one sets used_at with a conditional
// UPDATE, so two concurrent uses of one code cannot both pass. An MFA reset (by a brand Admin or the operator) is
// recorded in the outbox under a new topic, `Security`, that no webhook subscribes to (webhooks keep their own
// topic check).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table mfa_recovery_codes (
      code_hash bytea primary key,
      "user" uuid not null references users(id),
      created_at timestamptz not null,
      used_at timestamptz
    )`.execute(db);
  await sql`create index mfa_recovery_codes_user on mfa_recovery_codes ("user")`.execute(db);
  await sql`
    alter table domain_events drop constraint domain_events_topic_check,
      add constraint domain_events_topic_check
        check (topic in ('Contacts', 'Activities', 'Deals', 'Showings', 'Security'))`.execute(db);
}
