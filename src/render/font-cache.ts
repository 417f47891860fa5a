// Files of the allow-listed font hosts (a Google Fonts stylesheet and its font files), fetched by the server and
// kept in memory for the renderer. Every library template links the same stylesheet: without the cache each
// render fetched it and its fonts again from a fresh browser context, and where the hosts cannot be reached each
// render waited for the browser's name lookup to fail. A failure is remembered for a short while, so an offline
// server tries again now and then instead of on every render.
import type { OutboundHttp } from '../lib/outbound.js';
import type { OwnResponse } from './own-response.js';

/** How long a file is kept: Google serves stylesheets for a day and font files as immutable. */
const KEEP_MS = 24 * 60 * 60 * 1000;
/** How long a failure is remembered. */
const FAILURE_MS = 60 * 1000;
const MAX_ENTRIES = 200;
const MAX_BYTES = 32 * 1024 * 1024;
const MAX_FILE_BYTES = 5 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 10_000;

export type FetchFont = (url: string, headers: Record<string, string>) => Promise<OwnResponse>;

interface Entry {
  expires: number;
  response: Promise<OwnResponse | null>;
  bytes: number;
}

export class FontCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(
    private readonly fetchFont: FetchFont,
    private readonly now: () => number = Date.now,
  ) {}

  /** The file (a 200 answer), or null when it could not be had; one fetch for all renders asking at once. */
  get(url: string, headers: Record<string, string>): Promise<OwnResponse | null> {
    const found = this.entries.get(url);
    if (found && found.expires > this.now()) return found.response;
    if (found) this.forget(url, found);
    const entry: Entry = { expires: this.now() + FAILURE_MS, response: Promise.resolve(null), bytes: 0 };
    entry.response = this.fetchFont(url, headers).then(
      (response) => {
        if (response.status !== 200) return this.failed(url, entry);
        if (this.entries.get(url) === entry) {
          entry.expires = this.now() + KEEP_MS;
          entry.bytes = response.body.length;
          this.bytes += entry.bytes;
          this.trim();
        }
        return response;
      },
      () => this.failed(url, entry),
    );
    this.entries.set(url, entry);
    this.trim();
    return entry.response;
  }

  private failed(url: string, entry: Entry): null {
    if (this.entries.get(url) === entry) entry.expires = this.now() + FAILURE_MS;
    return null;
  }

  private forget(url: string, entry: Entry): void {
    this.entries.delete(url);
    this.bytes -= entry.bytes;
  }

  /** Oldest first, down to the bounds (a Map keeps insertion order). */
  private trim(): void {
    for (const [url, entry] of this.entries) {
      if (this.entries.size <= MAX_ENTRIES && this.bytes <= MAX_BYTES) return;
      this.forget(url, entry);
    }
  }
}

/** The fetch of the font hosts: through the outbound client (the SSRF guard decides; no redirects: only the font hosts are asked). */
export function fetchFontThrough(outbound: OutboundHttp): FetchFont {
  return async (url, headers) => {
    const res = await outbound.request({
      url,
      headers,
      timeoutMs: FETCH_TIMEOUT_MS,
      maxResponseBytes: MAX_FILE_BYTES,
      purpose: 'render-font',
    });
    return {
      status: res.status,
      contentType: String(res.headers['content-type'] ?? 'application/octet-stream'),
      body: res.body,
    };
  };
}
