// Which URLs a template may name (decisions §18; docs/templates.md). A template is rendered by a browser on the
// server, so a URL to a private address, to the file system or to an arbitrary font host would make the server
// fetch it. Allowed: http(s) to a public host name or a public (unicast) IP address, data: images and fonts,
// relative URLs (they resolve to this server, whose own files are the only ones the renderer loads), and, in a
// template, a URL that is a template expression (`{{ listing.cover_image_url }}`): it is checked again after
// rendering, when the value is known. Fonts (stylesheets, @font-face, @import) come only from FONT_HOSTS.
import ipaddr from 'ipaddr.js';
import { NetworkPolicy } from '../lib/network-guard.js';

/** The SSRF guard's address rule (lib/network-guard.ts), with no range opened: a template names public hosts only. */
const ADDRESSES = new NetworkPolicy();

/** Hosts fonts may be loaded from: Google Fonts' CSS and font files. */
export const FONT_HOSTS: readonly string[] = ['fonts.googleapis.com', 'fonts.gstatic.com'];

const PRIVATE_SUFFIXES = ['.localhost', '.local', '.internal', '.intranet', '.lan', '.home.arpa', '.corp', '.private'];

/** True for a host that names this machine or a private network (by name or by address). */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (host === '' || host === 'localhost') return true;
  if (ipaddr.isValid(host)) return ADDRESSES.refusal(host) !== null;
  // Numeric forms browsers read as IPv4 (2130706433, 0x7f.1, 017700000001): refused rather than decoded.
  if (/^[0-9.]+$/.test(host) || /^0x/i.test(host) || /(^|\.)0x[0-9a-f]*(\.|$)/i.test(host)) return true;
  if (!host.includes('.')) return true; // a single-label name resolves on the local network only
  return PRIVATE_SUFFIXES.some((suffix) => host.endsWith(suffix));
}

export type UrlUse = 'link' | 'image' | 'font';

export interface UrlOptions {
  /** The text is a template: a lone `{{ expression }}` passes (checked again once rendered). */
  template?: boolean;
  /** This server's origin (BASE_URL): its own files (brand logos, stored images) may be named even on a private address. */
  ownOrigin?: string;
}

function sameOrigin(value: string, origin: string): boolean {
  try {
    return new URL(value).origin === new URL(origin).origin;
  } catch {
    return false;
  }
}

const TEMPLATE_EXPRESSION = /^\s*\{\{[^{}]*\}\}\s*$/;

/** Whether a URL found in a template (or in rendered HTML) may stay. `template` admits a lone `{{ expression }}`. */
export function isAllowedUrl(raw: string, use: UrlUse, options: UrlOptions = {}): boolean {
  const value = raw.trim();
  if (value === '') return true;
  if (options.template && TEMPLATE_EXPRESSION.test(value)) return true;
  if (options.ownOrigin && use !== 'font' && sameOrigin(value, options.ownOrigin)) return true;
  // Control characters and backslashes are how scheme filters are fooled (java\tscript:, \\host\share).
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return false;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1]?.toLowerCase();
  if (scheme === undefined) {
    if (value.startsWith('//')) return false; // protocol-relative: a host in disguise
    return use !== 'font'; // relative: this server
  }
  if (scheme === 'data') {
    const type = value.slice(5).toLowerCase();
    if (use === 'font')
      return type.startsWith('font/') || type.startsWith('application/font') || type.startsWith('application/x-font');
    return type.startsWith('image/') && !type.startsWith('image/svg');
  }
  if (use === 'link' && (scheme === 'mailto' || scheme === 'tel')) return true;
  if (scheme !== 'https' && scheme !== 'http') return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (isPrivateHost(url.hostname)) return false;
  if (use === 'font') return url.protocol === 'https:' && FONT_HOSTS.includes(url.hostname.toLowerCase());
  return true;
}
