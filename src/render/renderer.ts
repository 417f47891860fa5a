// The renderer (decisions §18; docs/templates.md): HTML → PDF at a print medium's size plus bleed, with a PNG
// preview, or a PNG at a social medium's pixel size. Chromium driven by playwright-core (the system's browser,
// CHROMIUM_PATH), one browser process shared by all renders, time-limited, with JavaScript off and every network
// request of the page refused except this server's own URLs (answered in-process by `fetchOwn`, never over the
// network) and the allow-listed font hosts (fetched by the server through the outbound client and kept in memory:
// font-cache.ts). The browser itself connects to nothing.
//
// Pooled (ADR 0028): at most MAX_PAGES renders at once, each on a warm page of its own context. Making a context
// and a page costs ~170 ms of a ~300 ms render (a new renderer process), so a page is kept and given the next
// render: the new document replaces the old one, cookies are cleared, and the HTTP cache is off (request
// interception disables it), so nothing of one instance reaches the next. A page that failed or timed out is
// thrown away, and each is replaced after RENDERS_PER_PAGE renders to bound the renderer process's memory.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { BLEED_INCHES, PRINT_SIZES, SOCIAL_SIZES, type Medium } from './mediums.js';
import { FONT_HOSTS } from './url-policy.js';
import { FontCache, type FetchFont } from './font-cache.js';
import type { OwnResponse } from './own-response.js';

/**
 * Chromium's flags on a closed network (as the browser test suite starts it). The host rule makes every name and
 * address unresolvable inside the browser: the route handler already answers or refuses every request, but
 * Chromium opens a TCP connection for a refused iframe before the handler answers (and on a pooled page that
 * connection would outlive the render). With the rule the browser has nothing to connect to.
 */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--host-resolver-rules=MAP * ~NOTFOUND',
];
const CSS_DPI = 96;
const MAX_PAGES = 2;
const RENDERS_PER_PAGE = 50;

export interface RendererOptions {
  executablePath: string;
  timeoutMs: number;
  /** This server's origin: requests to it are answered by fetchOwn. */
  ownOrigin: string;
  fetchOwn(path: string): Promise<OwnResponse>;
  /** Fetches a file of an allow-listed font host for the page (kept in a FontCache); without it fonts are not loaded. */
  fetchFont?: FetchFont;
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

/** A warm page (in a context of its own) and the render it is doing, whose refused requests it records. */
interface PooledPage {
  context: BrowserContext;
  page: Page;
  renders: number;
  job: { blocked: string[] } | null;
}

/** What the font hosts choose by: Google Fonts answers a stylesheet for the browser named by the user agent. */
function pickHeaders(headers: Record<string, string>): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of ['user-agent', 'accept']) if (headers[name]) picked[name] = headers[name];
  return picked;
}

export function canRender(medium: string): boolean {
  return medium in PRINT_SIZES || medium in SOCIAL_SIZES;
}

export class Renderer {
  private browser: Promise<Browser> | null = null;
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private launched: Browser | null = null;
  private idle: PooledPage[] = [];

  private readonly fonts: FontCache | null;

  constructor(private readonly options: RendererOptions) {
    this.fonts = options.fetchFont ? new FontCache(options.fetchFont) : null;
  }

  /** Launches the browser (`gable doctor`): answers its version and path, or throws why it would not start. */
  async check(): Promise<string> {
    const browser = await this.launch();
    return `Chromium ${browser.version()} at ${this.options.executablePath}`;
  }

  private launch(): Promise<Browser> {
    // The driver is loaded with the first launch, not with the server: most starts render nothing for a while.
    this.browser ??= import('playwright-core')
      .then(({ chromium }) =>
        chromium.launch({ executablePath: this.options.executablePath, headless: true, args: CHROMIUM_ARGS }),
      )
      .then((browser) => {
        // A browser that crashed is launched again on the next render; its pooled pages are forgotten.
        browser.on('disconnected', () => {
          this.idle = this.idle.filter((pooled) => pooled.context.browser() !== browser);
          if (this.launched === browser) {
            this.launched = null;
            this.browser = null;
          }
        });
        this.launched = browser;
        return browser;
      })
      .catch((error: unknown) => {
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

  /** A warm page, or a new one in a context of its own whose every request goes through the network rule. */
  private async takePage(browser: Browser): Promise<PooledPage> {
    const warm = this.idle.pop();
    if (warm) return warm;
    const context = await browser.newContext({
      javaScriptEnabled: false,
      deviceScaleFactor: 1,
      serviceWorkers: 'block',
      acceptDownloads: false,
    });
    try {
      const pooled: PooledPage = { context, page: null as unknown as Page, renders: 0, job: null };
      await context.route('**/*', async (route) => {
        const url = new URL(route.request().url());
        const kind = this.allowed(url);
        if (kind === 'own' && pooled.job) {
          const own = await this.options.fetchOwn(url.pathname + url.search);
          return route.fulfill({ status: own.status, contentType: own.contentType, body: own.body });
        }
        if (kind === 'data' && pooled.job) return route.continue();
        if (kind === 'font' && pooled.job) {
          const font = await this.fonts?.get(url.toString(), pickHeaders(route.request().headers()));
          // Fonts are public and CSS loads them cross-origin, so the answer says any origin may read it.
          if (font)
            return route.fulfill({
              status: 200,
              contentType: font.contentType,
              body: font.body,
              headers: { 'access-control-allow-origin': '*' },
            });
          return route.abort('failed');
        }
        pooled.job?.blocked.push(url.toString());
        return route.abort('blockedbyclient');
      });
      pooled.page = await context.newPage();
      return pooled;
    } catch (error) {
      await context.close().catch(() => undefined);
      throw error;
    }
  }

  /** Back to the pool, clean, or closed when it has done its share. */
  private async givePage(pooled: PooledPage): Promise<void> {
    pooled.job = null;
    pooled.renders++;
    if (pooled.renders >= RENDERS_PER_PAGE || !pooled.context.browser()?.isConnected())
      return void (await pooled.context.close().catch(() => undefined));
    try {
      await pooled.context.clearCookies();
      this.idle.push(pooled);
    } catch {
      await pooled.context.close().catch(() => undefined);
    }
  }

  async render(html: string, medium: Medium): Promise<Rendered> {
    const print = PRINT_SIZES[medium];
    const social = SOCIAL_SIZES[medium];
    if (!print && !social) throw new Error(`no artefact size for medium ${medium}`);
    const width = print ? Math.round((print.width + 2 * BLEED_INCHES) * CSS_DPI) : social!.width;
    const height = print ? Math.round((print.height + 2 * BLEED_INCHES) * CSS_DPI) : social!.height;
    const release = await this.slot();
    const browser = await this.launch().catch((error: unknown) => {
      release();
      throw error;
    });
    const state: { pooled: PooledPage | null; abandoned: boolean } = { pooled: null, abandoned: false };
    let timer: NodeJS.Timeout | undefined;
    try {
      const work = (async () => {
        const pooled = await this.takePage(browser);
        if (state.abandoned) {
          await pooled.context.close().catch(() => undefined);
          throw new RenderTimeoutError(this.options.timeoutMs);
        }
        state.pooled = pooled;
        const blocked: string[] = [];
        pooled.job = { blocked };
        // One load of the page makes both files: the viewport is the sheet, so the preview is what the PDF prints.
        await pooled.page.setViewportSize({ width, height });
        await pooled.page.setContent(html, { waitUntil: 'load', timeout: this.options.timeoutMs });
        const pdf = print
          ? await pooled.page.pdf({
              width: `${print.width + 2 * BLEED_INCHES}in`,
              height: `${print.height + 2 * BLEED_INCHES}in`,
              printBackground: true,
              pageRanges: '',
              margin: { top: '0', right: '0', bottom: '0', left: '0' },
            })
          : null;
        const png = await pooled.page.screenshot({ type: 'png', fullPage: false });
        return { pdf, png, blocked: [...blocked] };
      })();
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new RenderTimeoutError(this.options.timeoutMs)), this.options.timeoutMs);
      });
      const rendered = await Promise.race([work, timeout]);
      const done = state.pooled;
      state.pooled = null;
      if (done) await this.givePage(done);
      return rendered;
    } finally {
      clearTimeout(timer);
      state.abandoned = true;
      // A page whose render failed or timed out may still be busy: it is closed, never reused.
      await state.pooled?.context.close().catch(() => undefined);
      release();
    }
  }

  async close(): Promise<void> {
    const browser = this.browser;
    this.browser = null;
    const idle = this.idle;
    this.idle = [];
    await Promise.all(idle.map((pooled) => pooled.context.close().catch(() => undefined)));
    if (browser) await (await browser.catch(() => null))?.close();
  }
}
