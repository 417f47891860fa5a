// Executing a campaign at due_at (the emails.execute job): resolve its recipients now (contacts → primary email,
// tags → the brand's contacts with it, brands → their members; deduplicated; unsubscribed contacts skipped),
// render the messages and hand them to the mail platform, in chunks of recipients, each chunk in one transaction
// with the campaign's progress (queued_through) and the last with executed_at, so a retried job goes on from the
// last chunk that committed and queues nobody twice.
import type { Kysely, Transaction } from 'kysely';
import type { Deps } from '../../platform/deps.js';
import type { DB } from '../../db/types.js';
import { unsubscribedAddresses } from '../../mail/mail.repository.js';
import { queueMessages, type OutgoingMessage } from '../../mail/mail.service.js';
import { subtreeIds } from '../brands/index.js';
import { emailKey } from '../../lib/contact-values.js';
import * as repo from './emails.repository.js';
import type { RecipientSpec } from './emails.columns.js';
import { compile, oneLine, textOf } from './personalise.js';
import { executeCampaignTask } from './emails.tasks.js';
import { sendingCredential } from '../extmail/index.js';

type List = 'to' | 'cc' | 'bcc';

export interface ResolvedRecipient {
  address: string;
  list: List;
  contact: repo.RecipientContact | null;
  user: repo.RecipientUser | null;
}

export async function resolveRecipients(
  db: Kysely<DB>,
  campaign: Pick<repo.CampaignRow, 'brand' | 'recipients'>,
): Promise<ResolvedRecipient[]> {
  const lists: List[] = ['to', 'cc', 'bcc'];
  const specs = lists.flatMap((list) => campaign.recipients[list].map((spec) => ({ list, spec })));
  const of = (type: RecipientSpec['recipient_type'], field: 'contact' | 'tag' | 'brand') => [
    ...new Set(specs.filter((s) => s.spec.recipient_type === type).map((s) => s.spec[field]!)),
  ];
  const contacts = new Map(
    (await repo.contactsOfBrand(db, campaign.brand, of('Contact', 'contact'))).map((c) => [c.id, c]),
  );
  const tagged = new Map<string, repo.RecipientContact[]>();
  for (const tag of of('Tag', 'tag')) tagged.set(tag, await repo.contactsWithTags(db, campaign.brand, [tag]));
  const reachable = new Set(await subtreeIds(db, campaign.brand));
  const members = new Map<string, repo.RecipientUser[]>();
  for (const brand of of('Brand', 'brand').filter((b) => reachable.has(b)))
    members.set(brand, await repo.membersOf(db, await subtreeIds(db, brand)));

  const seen = new Set<string>();
  const resolved: ResolvedRecipient[] = [];
  const push = (
    address: string | undefined,
    list: List,
    contact: repo.RecipientContact | null,
    user: repo.RecipientUser | null,
  ) => {
    if (!address) return;
    if (contact?.unsubscribed) return;
    const key = emailKey(address);
    if (seen.has(key)) return;
    seen.add(key);
    resolved.push({ address, list, contact, user });
  };
  for (const { list, spec } of specs) {
    if (spec.recipient_type === 'Email') push(spec.email, list, null, null);
    else if (spec.recipient_type === 'Contact') {
      const contact = contacts.get(spec.contact!);
      push(contact?.emails[0], list, contact ?? null, null);
    } else if (spec.recipient_type === 'Tag') {
      for (const contact of tagged.get(spec.tag!) ?? []) push(contact.emails[0], list, contact, null);
    } else for (const user of members.get(spec.brand!) ?? []) push(user.email, list, null, user);
  }
  // An address typed in as Email that belongs to an unsubscribed contact of the brand is skipped too.
  // So is an address that used a one-click unsubscribe link of the brand's mail (it may be no contact at all).
  const keys = resolved.map((r) => emailKey(r.address));
  const unsubscribed = await repo.unsubscribedKeys(db, campaign.brand, keys);
  const optedOut = await unsubscribedAddresses(db, campaign.brand, keys);
  return resolved.filter((r) => !unsubscribed.has(emailKey(r.address)) && !optedOut.has(emailKey(r.address)));
}

/** `Name <address>`: the sender's name, the configured MAIL_FROM address (the domain that may send). */
function fromHeader(mailFrom: string, sender: repo.Sender | undefined): string {
  const address = /<([^>]+)>\s*$/.exec(mailFrom)?.[1] ?? mailFrom;
  const name = sender ? `${sender.first_name ?? ''} ${sender.last_name ?? ''}`.replace(/["\\\r\n]/g, '').trim() : '';
  return name ? `"${name}" <${address}>` : mailFrom;
}

function personalData(recipient: ResolvedRecipient | null, sender: repo.Sender | undefined) {
  const person = recipient?.contact ?? recipient?.user ?? null;
  const sending = {
    first_name: sender?.first_name ?? '',
    last_name: sender?.last_name ?? '',
    email: sender?.email ?? '',
  };
  return {
    contact: person
      ? {
          first_name: person.first_name ?? '',
          last_name: person.last_name ?? '',
          display_name:
            'display_name' in person
              ? person.display_name
              : `${person.first_name ?? ''} ${person.last_name ?? ''}`.trim(),
          email: recipient!.address,
        }
      : recipient
        ? { email: recipient.address }
        : {},
    recipient: recipient ? { email: recipient.address } : {},
    sender: sending,
    user: sending,
  };
}

const EXTMAIL_UNAVAILABLE = {
  code: 'ExtmailUnavailable',
  message: 'The linked mailbox of this campaign was unlinked, revoked or lost Mail.Send before it was sent',
};
const NO_RECIPIENTS = {
  code: 'NoRecipients',
  message: 'No recipient has a usable email address (or every one has unsubscribed)',
};

/**
 * Runs in the emails.execute job. Does nothing for a deleted or executed campaign; re-plans one not yet due.
 * An individual campaign is queued in chunks of `chunkRows` recipients, each chunk its own transaction (ADR 0039):
 * on the embedded database a request waits for one chunk, not for the whole campaign. The recipients are taken in
 * the order of their keys and the campaign records the last key queued (`queued_through`), so a retried job goes
 * on after it. The last chunk sets executed_at.
 */
export async function executeCampaign(deps: Deps, id: string, chunkRows: number): Promise<void> {
  let finished = false;
  while (!finished) finished = await deps.db.transaction().execute((trx) => executeChunk(trx, deps, id, chunkRows));
}

/** One transaction of a campaign's execution; answers whether the campaign needs no more. */
async function executeChunk(trx: Transaction<DB>, deps: Deps, id: string, chunkRows: number): Promise<boolean> {
  const campaign = await repo.findCampaign(trx, id, { forUpdate: true });
  // A trigger's template is only ever copied (modules/triggers), never sent itself.
  if (!campaign || campaign.executed_at || campaign.template) return true;
  const now = deps.clock.now();
  if (campaign.due_at.getTime() > now.getTime() + 1000) {
    // Rescheduled later (or a clock ahead of this worker's): run again when this worker's clock reaches due_at.
    await deps.queue.enqueue(
      trx,
      executeCampaignTask,
      { campaign: id },
      { startIn: (campaign.due_at.getTime() - now.getTime()) / 1000 },
    );
    return true;
  }
  const recipients = (await resolveRecipients(trx, campaign)).map((r) => ({ ...r, key: emailKey(r.address) }));
  if (recipients.length === 0) {
    await repo.markExecuted(trx, id, 0, NO_RECIPIENTS, now);
    return true;
  }
  const sender = await repo.findSender(trx, campaign.created_by);
  // Sent from the sender's own linked mailbox when the campaign names one (docs/extmail.md "Sending").
  const mailbox = campaign.extmail_credential ? await sendingCredential(trx, campaign.extmail_credential) : null;
  if (campaign.extmail_credential && !mailbox) {
    await repo.markExecuted(trx, id, recipients.length, EXTMAIL_UNAVAILABLE, now);
    return true;
  }
  let html = campaign.html;
  let text = campaign.text;
  if (campaign.include_signature && sender?.email_signature) {
    html += `\n<br><div class="signature">${sender.email_signature}</div>`;
    if (text !== null) text += `\n\n-- \n${textOf(sender.email_signature)}`;
  }
  const templates = {
    subject: compile(campaign.subject, 'plain'),
    html: compile(html, 'html'),
    text: text === null ? null : compile(text, 'plain'),
  };
  const base = {
    purpose: 'email_campaign',
    campaign: id,
    brand: campaign.brand,
    // Marketing mail: tracked, with one-click unsubscribe where the message has one recipient (individual);
    // a message to several carries only the mailto form (a link could not tell who asked).
    tracking: { unsubscribeMailto: sender?.email ?? null, oneClick: campaign.individual },
    from: mailbox ? mailbox.email : fromHeader(deps.config.mailFrom, sender),
    headers: { ...campaign.headers, ...(sender && !mailbox ? { 'Reply-To': sender.email } : {}) },
    extmailCredential: mailbox?.id ?? null,
  };
  const render = async (recipient: ResolvedRecipient | null) => {
    const data = personalData(recipient, sender);
    const body = await templates.html.render(data);
    return {
      subject: oneLine(await templates.subject.render(data)),
      html: body,
      text: templates.text ? await templates.text.render(data) : textOf(body),
    };
  };
  // One message to everyone (not individual) is one row: it needs no chunks.
  const pending = campaign.individual
    ? recipients
        .filter((r) => campaign.queued_through === null || r.key > campaign.queued_through)
        .sort((a, b) => (a.key < b.key ? -1 : 1))
    : recipients;
  const chunk = campaign.individual ? pending.slice(0, chunkRows) : pending;
  const messages: OutgoingMessage[] = [];
  try {
    if (campaign.individual) {
      for (const recipient of chunk)
        messages.push({
          ...base,
          contact: recipient.contact?.id ?? null,
          to: [recipient.address],
          ...(await render(recipient)),
        });
    } else {
      const addresses = (list: List) => recipients.filter((r) => r.list === list).map((r) => r.address);
      messages.push({
        ...base,
        to: addresses('to'),
        cc: addresses('cc'),
        bcc: addresses('bcc'),
        ...(await render(null)),
      });
    }
  } catch (error) {
    // A template that parses but cannot render (it exceeds the render limits): retrying changes nothing.
    await repo.markExecuted(
      trx,
      id,
      recipients.length,
      {
        code: 'TemplateError',
        message: `The campaign could not be rendered: ${(error as Error).message.split('\n')[0]}`,
      },
      now,
    );
    return true;
  }
  await queueMessages(trx, deps, messages);
  if (chunk.length < pending.length) {
    await repo.markQueuedThrough(trx, id, chunk.at(-1)!.key, now);
    return false;
  }
  await repo.markExecuted(trx, id, recipients.length, null, now);
  return true;
}
