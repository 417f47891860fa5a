// White label (spec §5 step 3): a brand's own host names replace the web app host; the authorization pages
// served there show that brand and offer only its subtree.
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import {
  findBrandByHostname,
  findHostnamesOwnedElsewhere,
  liveBrandExists,
  listHostnames,
  replaceHostnames,
  type HostBrand,
} from './hostnames.repository.js';
import { isUuid } from '../../lib/uuid.js';

export class HostnameError extends Error {
  override readonly name = 'HostnameError';
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * A DNS host name as browsers send it in Host: lowercase LDH labels (RFC 1123), at most 253 characters, no
 * port, scheme or path. An all-numeric last label is refused so that IP addresses cannot be claimed.
 * Returns the normalised name (lowercased, trailing dot dropped).
 */
export function normaliseHostname(input: string): string {
  const host = input.trim().toLowerCase().replace(/\.$/, '');
  const labels = host.split('.');
  const valid =
    host.length > 0 &&
    host.length <= 253 &&
    labels.every((label) => LABEL.test(label)) &&
    !/^[0-9]+$/.test(labels[labels.length - 1]!);
  if (!valid)
    throw new HostnameError(
      `"${input}" is not a valid host name (expected something like auth.example.com, without scheme or port)`,
    );
  return host;
}

/** The host name of a request's Host header value: lowercased, port and trailing dot removed. */
export function hostnameOfHeader(host: string | undefined): string | null {
  if (!host) return null;
  const withoutPort = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d*$/, '');
  return withoutPort.toLowerCase().replace(/\.$/, '') || null;
}

/** The white-label brand of a request host, or undefined on the ordinary web app host. */
export async function whiteLabelBrand(db: Kysely<DB>, host: string | undefined): Promise<HostBrand | undefined> {
  const hostname = hostnameOfHeader(host);
  return hostname ? findBrandByHostname(db, hostname) : undefined;
}

/** Replaces the brand's host names; a name another brand owns is refused (nothing changes then). */
export async function setBrandHostnames(db: Kysely<DB>, brandId: string, hosts: string[]): Promise<string[]> {
  if (!isUuid(brandId)) throw new HostnameError(`"${brandId}" is not a brand id (uuid)`);
  const hostnames = [...new Set(hosts.map(normaliseHostname))].sort();
  return db.transaction().execute(async (trx) => {
    if (!(await liveBrandExists(trx, brandId))) throw new HostnameError(`Brand ${brandId} does not exist`);
    const taken = await findHostnamesOwnedElsewhere(trx, brandId, hostnames);
    if (taken.length > 0) {
      throw new HostnameError(taken.map((t) => `${t.hostname} already belongs to brand ${t.brand}`).join('; '));
    }
    await replaceHostnames(trx, brandId, hostnames);
    return hostnames;
  });
}

export async function brandHostnames(db: Kysely<DB>, brandId: string): Promise<string[]> {
  if (!isUuid(brandId)) throw new HostnameError(`"${brandId}" is not a brand id (uuid)`);
  if (!(await liveBrandExists(db, brandId))) throw new HostnameError(`Brand ${brandId} does not exist`);
  return listHostnames(db, brandId);
}
