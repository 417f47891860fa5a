// The renderer (decisions §18; docs/templates.md): HTML → PDF at a print medium's size plus bleed, with a PNG
// preview, or a PNG at a social medium's pixel size. Chromium driven by playwright-core (the system's browser,
// CHROMIUM_PATH), one browser process shared by all renders (pooled: a fresh context per render, at most
// MAX_PAGES at once), time-limited, with JavaScript off and every network request of the page refused except
// this server's own URLs (answered in-process by `fetchOwn`, never over the network) and the allow-listed font
// hosts.
import { chromium, type Browser } from 'playwright-core';
import { BLEED_INCHES, PRINT_SIZES, SOCIAL_SIZES, type Medium } from '../modules/templates/mediums.js';
import { FONT_HOSTS } from '../modules/templates/url-policy.js';

/** Chromium's flags on a closed network (as the browser test suite starts it). */
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const CSS_DPI = 96;
const MAX_PAGES = 2;

export interface OwnResponse {
  status: number;
  contentType: string;
  body: Buffer;
}

export interface RendererOptions {
  executablePath: string;
  timeoutMs: number;
  /** This server's origin: requests to it are answered by fetchOwn. */
  ownOrigin: string;
  fetchOwn(path: string): Promise<OwnResponse>;
}

export interface Rendered {
  /** The print file (print mediums), else null. */
  pdf: Buffer | null;
  /** The preview (print) or the artefact itself (social). */
  png: Buffer;
  /** URLs the page tried to load and was refused. */
  blocked: string[];
}

export class RenderTimeoutError extends Error {
  constructor(ms: number) {
    super(`rendering took longer than ${ms} ms`);
    this.name = 'RenderTimeoutError';
  }
}

export function canRender(medium: string): boolean {
  return medium in PRINT_SIZES || medium in SOCIAL_SIZES;
}

export class Renderer {
  private browser: Promise<Browser> | null = null;
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly options: RendererOptions) {}

  private launch(): Promise<Browser> {
    this.browser ??= chromium.launch({ executablePath: this.options.executablePath, headless: true, args: CHROMIUM_ARGS }).catch((error: unknown) => {
      this.browser = null;
      throw error;
    });
    return this.browser;
  }

  private async slot(): Promise<() => void> {
    if (this.active >= MAX_PAGES) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    return () => {
      this.active--;
      this.waiting.shift()?.();
    };
  }

  private allowed(url: URL): 'own' | 'font' | 'data' | null {
    if (url.protocol === 'data:') return 'data';
    if (url.origin === new URL(this.options.ownOrigin).origin) return 'own';
    if (url.protocol === 'https:' && FONT_HOSTS.includes(url.hostname)) return 'font';
    return null;
  }

  async render(html: string, medium: Medium): Promise<Rendered> {
    const print = PRINT_SIZES[medium];
    const social = SOCIAL_SIZES[medium];
    if (!print && !social) throw new Error(`no artefact size for medium ${medium}`);
    const release = await this.slot();
    const browser = await this.launch().catch((error: unknown) => {
      release();
      throw error;
    });
    const width = print ? Math.round((print.width + 2 * BLEED_INCHES) * CSS_DPI) : social!.width;
    const height = print ? Math.round((print.height + 2 * BLEED_INCHES) * CSS_DPI) : social!.height;
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width, height }, deviceScaleFactor: 1, serviceWorkers: 'block', acceptDownloads: false });
    const blocked: string[] = [];
    let timer: NodeJS.Timeout | undefined;
    try {
      await context.route('**/*', async (route) => {
        const url = new URL(route.request().url());
        const kind = this.allowed(url);
        if (kind === 'own') {
          const own = await this.options.fetchOwn(url.pathname + url.search);
          return route.fulfill({ status: own.status, contentType: own.contentType, body: own.body });
        }
        if (kind === 'font' || kind === 'data') return route.continue();
        blocked.push(url.toString());
        return route.abort('blockedbyclient');
      });
      const work = (async () => {
        const page = await context.newPage();
        await page.setContent(html, { waitUntil: 'load', timeout: this.options.timeoutMs });
        const pdf = print
          ? await page.pdf({ width: `${print.width + 2 * BLEED_INCHES}in`, height: `${print.height + 2 * BLEED_INCHES}in`, printBackground: true, pageRanges: '', margin: { top: '0', right: '0', bottom: '0', left: '0' } })
          : null;
        const png = await page.screenshot({ type: 'png', fullPage: false });
        return { pdf, png, blocked };
      })();
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new RenderTimeoutError(this.options.timeoutMs)), this.options.timeoutMs);
      });
      return await Promise.race([work, timeout]);
    } finally {
      clearTimeout(timer);
      await context.close().catch(() => undefined);
      release();
    }
  }

  async close(): Promise<void> {
    const browser = this.browser;
    this.browser = null;
    if (browser) await (await browser.catch(() => null))?.close();
  }
}
