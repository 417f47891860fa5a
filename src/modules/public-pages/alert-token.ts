// Alert links (decisions §21; docs/public-pages.md "The alert token"): `WEB_URL/a/<token>`, where the token names a
// (saved search, contact) pair and an expiry, signed so it can be neither forged nor pointed at another pair. 53
// bytes as base64url (71 characters): a version byte, the two uuids, the expiry (uint32 epoch seconds) and 128 bits
// of an HMAC-SHA256 of the rest under a key derived from SECRET_KEY for this purpose alone. Checked under SECRET_KEY
// and each SECRET_KEY_PREVIOUS, so alerts sent before a key rotation keep their links until they expire.
import type { Config } from '../../config.js';
import { purposeSignature, type MasterKeys } from '../../lib/crypto.js';

const VERSION = 1;
const UUID_BYTES = 16;
const SIGNATURE_BYTES = 16;
const PAYLOAD_BYTES = 1 + 2 * UUID_BYTES + 4;
const TOKEN_BYTES = PAYLOAD_BYTES + SIGNATURE_BYTES;
/** base64url of TOKEN_BYTES: anything of another length or alphabet is refused before decoding. */
const TOKEN_SHAPE = new RegExp(`^[A-Za-z0-9_-]{${Math.ceil((TOKEN_BYTES * 4) / 3)}}$`);
const DAY_SECONDS = 86_400;

export const ALERT_PAGE_PREFIX = '/a/';
export const PREFERENCES_SUFFIX = '/preferences';

const signatures = (keys: MasterKeys) => purposeSignature(keys, 'alert-link', SIGNATURE_BYTES * 2);

export interface AlertLink {
  search: string;
  contact: string;
}

export type ReadAlertToken =
  | ({ state: 'valid'; expiresAt: Date } & AlertLink)
  /** Signed by us, past its expiry: the page says the link has expired (410). */
  | ({ state: 'expired'; expiresAt: Date } & AlertLink)
  /** Not a token we made (malformed, tampered with, signed under a key no longer configured). */
  | { state: 'invalid' };

const uuidBytes = (uuid: string) => Buffer.from(uuid.replace(/-/g, ''), 'hex');
const uuidText = (bytes: Buffer) =>
  bytes.toString('hex').replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');

/** The token of an alert link valid until `expiresAt` (whole seconds). */
export function alertToken(keys: MasterKeys, link: AlertLink, expiresAt: Date): string {
  const payload = Buffer.alloc(PAYLOAD_BYTES);
  payload.writeUInt8(VERSION, 0);
  uuidBytes(link.search).copy(payload, 1);
  uuidBytes(link.contact).copy(payload, 1 + UUID_BYTES);
  payload.writeUInt32BE(Math.floor(expiresAt.getTime() / 1000), 1 + 2 * UUID_BYTES);
  const signature = Buffer.from(signatures(keys).sign(payload.toString('base64url')), 'hex');
  return Buffer.concat([payload, signature]).toString('base64url');
}

/** What a token names, and whether it still holds at `now`. */
export function readAlertToken(keys: MasterKeys, token: unknown, now: Date): ReadAlertToken {
  if (typeof token !== 'string' || !TOKEN_SHAPE.test(token)) return { state: 'invalid' };
  const bytes = Buffer.from(token, 'base64url');
  // 71 characters carry 426 bits for 424: the decoder ignores the last character's 2 spare bits, so 4 spellings
  // decode to the same bytes. Only the one we write is the token; the others are tampered with.
  if (bytes.toString('base64url') !== token) return { state: 'invalid' };
  if (bytes.length !== TOKEN_BYTES || bytes.readUInt8(0) !== VERSION) return { state: 'invalid' };
  const payload = bytes.subarray(0, PAYLOAD_BYTES);
  const given = bytes.subarray(PAYLOAD_BYTES).toString('hex');
  if (!signatures(keys).verifies(payload.toString('base64url'), given)) return { state: 'invalid' };
  const link = {
    search: uuidText(payload.subarray(1, 1 + UUID_BYTES)),
    contact: uuidText(payload.subarray(1 + UUID_BYTES, 1 + 2 * UUID_BYTES)),
  };
  const expiresAt = new Date(payload.readUInt32BE(1 + 2 * UUID_BYTES) * 1000);
  return { state: expiresAt.getTime() > now.getTime() ? 'valid' : 'expired', expiresAt, ...link };
}

type AlertUrlConfig = Pick<Config, 'webUrl' | 'alertUrl' | 'alertLinkTtlDays'> & MasterKeys;

const expiryOf = (config: Pick<Config, 'alertLinkTtlDays'>, now: Date) =>
  new Date(now.getTime() + config.alertLinkTtlDays * DAY_SECONDS * 1000);

/** The preferences page of an alert sent at `now` (always Gable's own page: ALERT_URL replaces the results only). */
export function alertPreferencesUrl(config: AlertUrlConfig, link: AlertLink, now: Date): string {
  return `${config.webUrl}${ALERT_PAGE_PREFIX}${alertToken(config, link, expiryOf(config, now))}${PREFERENCES_SUFFIX}`;
}

/**
 * The "see all" address of an alert sent at `now` for (search, contact) of `brand`: ALERT_URL with its variables
 * replaced (URL-encoded) when set, else the results page on WEB_URL. The token expires ALERT_LINK_TTL_DAYS later.
 */
export function alertPageUrl(config: AlertUrlConfig, link: AlertLink & { brand: string }, now: Date): string {
  const token = alertToken(config, link, expiryOf(config, now));
  if (config.alertUrl === null) return `${config.webUrl}${ALERT_PAGE_PREFIX}${token}`;
  return config.alertUrl
    .replaceAll('{token}', encodeURIComponent(token))
    .replaceAll('{search}', encodeURIComponent(link.search))
    .replaceAll('{contact}', encodeURIComponent(link.contact))
    .replaceAll('{brand}', encodeURIComponent(link.brand));
}
