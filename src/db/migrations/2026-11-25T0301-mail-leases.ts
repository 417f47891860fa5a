// Crash safety of the mail ledger (docs/mail.md): a send job claims a message for a lease, so two jobs never send
// it at once, and a message left `sending` by a worker that died is sent again once its lease has run out (the
// mail.recover sweeper), with the same Message-ID. `not_before` keeps the sweeper off messages planned for later.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table mail_messages add column claimed_until timestamptz;
    alter table mail_messages add column not_before timestamptz;
    create index mail_messages_unfinished_idx on mail_messages (state, claimed_until) where state in ('queued', 'sending');
  `.execute(db);
}
