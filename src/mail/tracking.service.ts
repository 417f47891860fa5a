// What tracking links and the delivery feed do (decisions §15, docs/mail.md): record an event once per message,
// kind and recipient (so counters count recipients, not hits), redirect a signed click, and turn a one-click
// unsubscribe into an unsubscribed contact (and a remembered address) in the brand the mail came from.
import type { Kysely, Transaction } from 'kysely';
import type { Deps } from '../platform/deps.js';
import type { DB } from '../db/types.js';
import { errors } from '../errors.js';
import { emailKey } from '../lib/contact-values.js';
import * as repo from './mail.repository.js';
import type { MailEventKind } from './mail.columns.js';
import { isWebUrl, verifyLinkToken, type LinkPurpose } from './tracking.js';
import { verificationKeys } from '../lib/crypto.js';

type TrackingDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'mailHooks'>;

/** The one recipient of a message (lower-cased), or '' for a message to several: events then count per message. */
export function soleRecipient(row: Pick<repo.MailRow, 'to_addresses' | 'cc_addresses' | 'bcc_addresses'>): string {
  const all = [...row.to_addresses, ...row.cc_addresses, ...row.bcc_addresses];
  return all.length === 1 ? emailKey(all[0]!) : '';
}

const REFUSED = 'This link is not valid (it was changed or is incomplete)';

async function messageOfLink(
  deps: TrackingDeps,
  purpose: LinkPurpose,
  token: string,
  extra = '',
): Promise<repo.MailRow> {
  const id = verifyLinkToken(verificationKeys(deps.config), purpose, token, extra);
  if (!id) throw errors.badRequest(REFUSED);
  const row = await repo.findMessage(deps.db, id);
  // A signed link of a message that is gone (the ledger was pruned) names nothing any more.
  if (!row) throw errors.notFound('Message');
  return row;
}

async function record(
  db: Kysely<DB>,
  deps: Pick<Deps, 'clock'>,
  row: Pick<repo.MailRow, 'id' | 'campaign'>,
  kind: MailEventKind,
  recipient: string,
  detail: Record<string, unknown> | null = null,
  occurredAt?: Date,
) {
  const at = deps.clock.now();
  return repo.insertEvent(db, {
    message: row.id,
    campaign: row.campaign,
    kind,
    recipient,
    detail,
    occurredAt: occurredAt ?? at,
    at,
  });
}

/** The open pixel was fetched. */
export async function recordOpen(deps: TrackingDeps, token: string): Promise<void> {
  const row = await messageOfLink(deps, 'open', token);
  await record(deps.db, deps, row, 'opened', soleRecipient(row));
}

/** A tracked link was followed: answers the URL it was signed for (only ever an http(s) URL). */
export async function followClick(deps: TrackingDeps, token: string, url: string): Promise<string> {
  if (!isWebUrl(url)) throw errors.badRequest(REFUSED);
  const row = await messageOfLink(deps, 'click', token, url);
  await record(deps.db, deps, row, 'clicked', soleRecipient(row), { url });
  return url;
}

/** Whom an unsubscribe link names: the message's one recipient (lower-cased) and the brand whose mail it was. */
export interface UnsubscribeTarget {
  address: string;
  brand: string;
  message: string;
}

async function targetOf(deps: TrackingDeps, token: string): Promise<{ row: repo.MailRow; target: UnsubscribeTarget }> {
  const row = await messageOfLink(deps, 'unsubscribe', token);
  const address = soleRecipient(row);
  if (!address || !row.brand) throw errors.badRequest(REFUSED);
  return { row, target: { address, brand: row.brand, message: row.id } };
}

/** What the unsubscribe page shows before the recipient confirms (a GET never unsubscribes: link scanners). */
export async function describeUnsubscribe(deps: TrackingDeps, token: string): Promise<UnsubscribeTarget> {
  return (await targetOf(deps, token)).target;
}

/**
 * RFC 8058 one-click unsubscribe: the address stops the brand's marketing mail — remembered for the brand
 * (addresses that are no contact too), every live contact of the brand with it marked unsubscribed, the
 * campaign's `unsubscribed` counter moved once. Idempotent: a second POST changes nothing. `also` runs in the same
 * transaction: what a wider unsubscribe (the public page's "everything from this brand") adds.
 */
export async function unsubscribe(
  deps: TrackingDeps,
  token: string,
  also?: (trx: Transaction<DB>, target: UnsubscribeTarget) => Promise<void>,
): Promise<UnsubscribeTarget> {
  const { row, target } = await targetOf(deps, token);
  await deps.db.transaction().execute(async (trx) => {
    await repo.insertUnsubscribe(trx, target.brand, target.address, row.id, deps.clock.now());
    await deps.mailHooks.unsubscribeContacts(trx, deps, target.brand, target.address);
    await record(trx, deps, row, 'unsubscribed', target.address);
    if (also) await also(trx, target);
  });
  return target;
}
