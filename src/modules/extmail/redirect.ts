// Where the callback may send the browser back to (never an open redirect): an address on this server's own
// hosts (BASE_URL, WEB_URL, or https on a white-label host name of a brand), or exactly one of the redirect URIs
// registered for the OAuth client that asked for the link. Checked when the link is made; the signed state then
// carries it unchanged to the callback.
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { DB } from '../../db/types.js';
import { findLiveClientById } from '../auth/index.js';
import { isBrandHostname } from '../brands/index.js';

export const MAX_REDIRECT_LENGTH = 2048;

export async function isAllowedRedirect(
  db: Kysely<DB>,
  config: Config,
  client: string,
  redirect: string,
): Promise<boolean> {
  let url: URL;
  try {
    url = new URL(redirect);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
  if (url.username || url.password) return false;
  const own = [config.baseUrl, config.webUrl].map((base) => new URL(base).origin);
  if (own.includes(url.origin)) return true;
  if (url.protocol === 'https:' && url.port === '') {
    if (await isBrandHostname(db, url.hostname.toLowerCase())) return true;
  }
  const registered = await findLiveClientById(db, client);
  return registered?.redirect_uris.includes(redirect) ?? false;
}

/** The redirect with OAuth-style error parameters added (the callback's way of saying the link failed). */
export function withParams(redirect: string, params: Record<string, string>): string {
  const url = new URL(redirect);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.toString();
}
