// One-click unsubscribe of a saved-search alert (RFC 8058; decisions §6): the link names the search and the contact
// and carries an HMAC of both under a key derived from SECRET_KEY, so it cannot be forged or pointed at another
// link. Unsubscribing sets that contact link's frequency to Never (the link stays, the alerts stop). Links are
// signed under SECRET_KEY and checked under it and each SECRET_KEY_PREVIOUS, so mail sent before a rotation works.
import type { Deps } from '../../platform/deps.js';
import { errors } from '../../errors.js';
import { purposeSignature, type MasterKeys } from '../../lib/crypto.js';
import { findLinkTitle, unsubscribeLink } from './delivery.repository.js';

const signatures = (keys: MasterKeys) => purposeSignature(keys, 'saved-search-unsubscribe');
const signedData = (search: string, contact: string) => `${search.toLowerCase()}:${contact.toLowerCase()}`;

export function unsubscribeUrl(deps: Pick<Deps, 'config'>, search: string, contact: string): string {
  const token = signatures(deps.config).sign(signedData(search, contact));
  const query = new URLSearchParams({ search, contact, token });
  return `${deps.config.baseUrl}/saved-searches/unsubscribe?${query.toString()}`;
}

export interface UnsubscribeRequest {
  search: string;
  contact: string;
  token: string;
}

/** Checks the link (400 when tampered with, nothing changed); answers the search's title for the page. */
export async function checkUnsubscribe(
  deps: Pick<Deps, 'config' | 'db'>,
  request: UnsubscribeRequest,
): Promise<{ title: string }> {
  if (!signatures(deps.config).verifies(signedData(request.search, request.contact), request.token))
    throw errors.invalidField('token', 'does not match this unsubscribe link');
  const row = await findLinkTitle(deps.db, request.search, request.contact);
  if (!row) throw errors.notFound('Saved search');
  return { title: row.title ?? row.proposed_title };
}

/** Sets the link to Never (idempotent: a second click changes nothing more). */
export async function unsubscribe(
  deps: Pick<Deps, 'config' | 'db' | 'clock'>,
  request: UnsubscribeRequest,
): Promise<{ title: string }> {
  const found = await checkUnsubscribe(deps, request);
  await unsubscribeLink(deps.db, request.search, request.contact, deps.clock.now());
  return found;
}
