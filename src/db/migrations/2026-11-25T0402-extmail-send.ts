// Sending campaigns through a linked mailbox (docs/extmail.md "Sending"): a campaign may name the credential to
// send from, and each ledger row remembers it, so the send job hands that row to Graph sendMail instead of SMTP.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table email_campaigns add column extmail_credential uuid references extmail_credentials (id);
    alter table mail_messages add column extmail_credential uuid references extmail_credentials (id);
  `.execute(db);
}
