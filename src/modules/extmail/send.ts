// Sending through a linked mailbox (docs/extmail.md "Sending"): the check a campaign's `extmail_credential`
// must pass, and the mail platform's send of one ledger row through the provider (Graph sendMail) instead of
// SMTP. The ledger, its claim and its outcome stay the mail platform's (src/mail), so counters and retries are
// the same as for SMTP.
import type { Kysely } from 'kysely';
import type { Deps } from '../../platform/deps.js';
import type { DB } from '../../db/types.js';
import { errors } from '../../errors.js';
import { SendFailure, type SendOutcome, type WireMessage } from '../../mail/transport.js';
import { findCredential, type CredentialRow } from './extmail.repository.js';
import { providerOf } from './extmail.service.js';
import { GraphSession } from './graph-session.js';
import { ProviderError } from './provider.js';
import { markRevoked } from './sync.service.js';

const FIELD = 'extmail_credential';

/** A live, unrevoked credential of this user in this brand that may send mail; else 400 naming the field. */
export async function requireSendingCredential(
  db: Kysely<DB>,
  userId: string,
  brand: string,
  id: string,
): Promise<CredentialRow> {
  const row = await findCredential(db, id);
  if (!row || row.user !== userId || row.brand !== brand)
    throw errors.invalidField(FIELD, 'must be a mailbox you linked in this brand');
  if (row.revoked) throw errors.invalidField(FIELD, 'was revoked by the mail provider: link the mailbox again');
  if (!(row.scope ?? []).includes('Mail.Send'))
    throw errors.invalidField(FIELD, 'was linked without Mail.Send: link it again with that scope');
  return row;
}

/** Whether a campaign may still send from the credential when it executes (it may have changed since). */
export async function sendingCredential(db: Kysely<DB>, id: string): Promise<CredentialRow | null> {
  const row = await findCredential(db, id);
  return row && !row.revoked && (row.scope ?? []).includes('Mail.Send') ? row : null;
}

type SendDeps = Pick<Deps, 'db' | 'clock' | 'log' | 'config' | 'outbound' | 'secrets'>;

/**
 * One message through the mailbox. Graph's 202 means it took every recipient. A refused grant revokes the
 * credential and fails the message for good; throttling and outages throw a plain error, so the send job retries.
 */
export async function sendThroughMailbox(
  deps: SendDeps,
  credentialId: string,
  message: WireMessage,
): Promise<SendOutcome> {
  const row = await sendingCredential(deps.db, credentialId);
  if (!row)
    throw new SendFailure(
      'The linked mailbox is no longer available (unlinked, revoked or without Mail.Send)',
      true,
      null,
    );
  const full = deps as Deps;
  const provider = providerOf(full);
  try {
    await new GraphSession(full, provider, row).run((token) =>
      provider.sendMail(token, {
        to: message.to,
        cc: message.cc,
        bcc: message.bcc,
        subject: message.subject,
        html: message.html,
        text: message.text,
        headers: { ...message.headers, 'X-Gable-Message-Id': message.messageId },
      }),
    );
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    if (error.kind === 'invalid_grant') {
      await markRevoked(full, row);
      throw new SendFailure('The mail provider refused the mailbox link (revoked)', true, null);
    }
    if (error.kind === 'bad_response')
      throw new SendFailure(`The mail provider refused the message: ${error.message}`, true, null);
    throw new Error(`Sending through the mailbox failed (${error.kind}): ${error.message}`);
  }
  return {
    accepted: [...message.to, ...message.cc, ...message.bcc],
    rejected: [],
    response: 'Microsoft Graph sendMail: 202 Accepted',
  };
}
