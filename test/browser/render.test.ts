// The renderer with Debian's Chromium (decisions §18): PDF page size (trim + bleed) and page count, PNG preview and
// social PNG pixel sizes, files reachable through their signed URLs, network requests refused, the time limit.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';
import { createBrand } from '../helpers/factories.js';
import { clientHeaders, sampleListing } from '../helpers/listings.js';
import { renderInstance } from '../../src/modules/templates/instances.render.js';
import { seedTemplateLibrary } from '../../src/modules/templates/templates.library.js';
import { marketer } from '../helpers/templates.js';
import { Renderer, RenderTimeoutError } from '../../src/render/renderer.js';
import { OutboundHttp } from '../../src/lib/outbound.js';

const CHROMIUM = '/usr/bin/chromium';
const t = useTestApp({ env: { CHROMIUM_PATH: CHROMIUM } });
let agent: Awaited<ReturnType<typeof marketer>>;
let listing: string;
const templates: Record<string, string> = {};

/** Width and height from a PNG's IHDR chunk. */
const pngSize = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });
const download = async (url: string) => {
  const res = await t.app.inject({ url: new URL(url).pathname + new URL(url).search });
  expect(res.statusCode).toBe(200);
  return { bytes: res.rawPayload, type: res.headers['content-type'] };
};

beforeAll(async () => {
  await seedTemplateLibrary(t.deps);
  agent = await marketer(t.deps, { brand: (await createBrand(t.deps)).id });
  await t.app.inject({
    method: 'POST',
    url: '/mls/NTREIS/listings',
    headers: await clientHeaders(t.deps),
    payload: [sampleListing('R-1')],
  });
  listing = (
    await t.deps.db.selectFrom('listings').select('id').where('mls_number', '=', 'R-1').executeTakeFirstOrThrow()
  ).id;
  for (const tpl of (await t.app.inject({ url: '/templates?limit=100', headers: agent.headers })).json().data)
    templates[tpl.medium] = tpl.id;
});

async function renderedInstance(medium: string) {
  const created = await t.app.inject({
    method: 'POST',
    url: `/templates/${templates[medium]}/instances`,
    headers: agent.headers,
    payload: { listings: [listing] },
  });
  expect(created.statusCode, created.body).toBe(200);
  expect(created.json().data.render_status).toBe('pending');
  await renderInstance(t.deps, created.json().data.id); // what the job runs
  const res = await t.app.inject({ url: `/templates/instances/${created.json().data.id}`, headers: agent.bare });
  return res.json().data;
}

describe('rendering template instances', () => {
  it('a postcard becomes a one-page PDF of 6.25 × 4.25 in (6 × 4 + bleed) with a PNG preview', async () => {
    const instance = await renderedInstance('PostCard');
    expect(instance).toMatchObject({ render_status: 'rendered', file: { mime: 'application/pdf' } });
    const pdf = await download(instance.file.url);
    expect(pdf.type).toBe('application/pdf');
    const doc = await PDFDocument.load(pdf.bytes);
    expect(doc.getPageCount()).toBe(1);
    const { width, height } = doc.getPage(0).getSize();
    expect(Math.round(width)).toBe(450); // 6.25 in × 72 pt
    expect(Math.round(height)).toBe(306); // 4.25 in × 72 pt
    const preview = await download(instance.file.preview_url);
    expect(preview.type).toBe('image/png');
    expect(pngSize(preview.bytes)).toEqual({ width: 600, height: 408 }); // at 96 px per inch
  });

  it('an Instagram story becomes a 1080 × 1920 PNG', async () => {
    const instance = await renderedInstance('InstagramStory');
    expect(instance.file.mime).toBe('image/png');
    expect(pngSize((await download(instance.file.url)).bytes)).toEqual({ width: 1080, height: 1920 });
  });

  it('rendering again changes nothing (idempotent job)', async () => {
    const instance = await renderedInstance('BusinessCard');
    await renderInstance(t.deps, instance.id);
    const again = (await t.app.inject({ url: `/templates/instances/${instance.id}`, headers: agent.bare })).json().data;
    expect(again.file.id).toBe(instance.file.id);
  });
});

describe('the renderer’s network', () => {
  let server: Server;
  let hits = 0;
  let connections = 0;
  let origin: string;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      hits++;
      res.end('secret');
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('a page that tries to fetch a private URL gets nothing, not even a connection', async () => {
    const html = `<html><head><link rel="stylesheet" href="${origin}/style.css"><style>body { background: url(${origin}/bg.png) }</style></head><body><img src="${origin}/metadata"><iframe src="${origin}/frame"></iframe><img src="https://example.com/x.png"></body></html>`;
    const rendered = await t.deps.renderer!.render(html, 'PostCard');
    expect(hits).toBe(0);
    expect(connections).toBe(0); // not even a TCP connection (the iframe's was opened before its request was refused)
    expect(rendered.blocked).toEqual(expect.arrayContaining([`${origin}/metadata`, 'https://example.com/x.png']));
  });

  it('a render that takes too long is abandoned with a timeout error', async () => {
    const slow = new Renderer({
      executablePath: CHROMIUM,
      timeoutMs: 1500,
      ownOrigin: 'http://gable.test',
      fetchOwn: () => new Promise(() => undefined),
    });
    try {
      await expect(slow.render('<img src="http://gable.test/files/slow">', 'PostCard')).rejects.toBeInstanceOf(
        RenderTimeoutError,
      );
      // Through the job: the instance records the failure (and the job is retried once by the queue).
      const created = await t.app.inject({
        method: 'POST',
        url: `/templates/${templates.Flyer}/instances`,
        headers: agent.headers,
        payload: { html: '<img src="http://gable.test/files/slow">' },
      });
      const id = created.json().data.id as string;
      await expect(renderInstance({ ...t.deps, renderer: slow }, id)).rejects.toBeInstanceOf(RenderTimeoutError);
      const failed = (await t.app.inject({ url: `/templates/instances/${id}`, headers: agent.bare })).json().data;
      expect(failed).toMatchObject({ render_status: 'failed', file: { mime: 'text/html' } });
      expect(failed.render_note).toContain('took longer than 1500 ms');
    } finally {
      await slow.close();
    }
  });
});

describe('the pooled pages', () => {
  it('a page rendered after another has its own size and its own refused addresses', async () => {
    const renderer = t.deps.renderer!;
    const story = await renderer.render('<p>story</p><img src="https://a.example/first.png">', 'InstagramStory');
    expect(pngSize(story.png)).toEqual({ width: 1080, height: 1920 });
    expect(story.blocked).toEqual(['https://a.example/first.png']);
    const card = await renderer.render('<p>card</p><img src="https://b.example/second.png">', 'PostCard');
    expect(pngSize(card.png)).toEqual({ width: 600, height: 408 });
    expect(card.blocked).toEqual(['https://b.example/second.png']);
    const doc = await PDFDocument.load(card.pdf!);
    expect(Math.round(doc.getPage(0).getSize().width)).toBe(450);
  });

  it('a browser that went away is launched again by the next render (its pooled pages are forgotten)', async () => {
    const renderer = new Renderer({
      executablePath: CHROMIUM,
      timeoutMs: 30_000,
      ownOrigin: 'http://gable.test',
      fetchOwn: () => Promise.resolve({ status: 404, contentType: 'text/plain', body: Buffer.from('') }),
    });
    try {
      await renderer.render('<p>first</p>', 'PostCard');
      const first = renderer['launched']!;
      await first.close(); // as a crash would: the browser disconnects
      const next = await renderer.render('<p>after</p>', 'PostCard');
      expect(pngSize(next.png)).toEqual({ width: 600, height: 408 });
      expect(renderer['launched']).not.toBe(first);
    } finally {
      await renderer.close();
    }
  });

  it('a page that timed out is not reused: the next render of the same renderer succeeds', async () => {
    const renderer = new Renderer({
      executablePath: CHROMIUM,
      timeoutMs: 3000,
      ownOrigin: 'http://gable.test',
      fetchOwn: (path) =>
        path === '/files/slow'
          ? new Promise(() => undefined)
          : Promise.resolve({ status: 404, contentType: 'text/plain', body: Buffer.from('') }),
    });
    try {
      await expect(renderer.render('<img src="http://gable.test/files/slow">', 'PostCard')).rejects.toBeInstanceOf(
        RenderTimeoutError,
      );
      const next = await renderer.render('<p>next</p>', 'PostCard');
      expect(pngSize(next.png)).toEqual({ width: 600, height: 408 });
      expect(next.blocked).toEqual([]);
    } finally {
      await renderer.close();
    }
  });
});

describe('fonts of the allow-listed hosts', () => {
  const FONT_PAGE =
    '<html><head><link rel="stylesheet" href="https://fonts.googleapis.com/css2?family=Inter"></head><body><p style="font-family: Inter">Just listed</p></body></html>';

  it('are fetched by the server once and given to every render; the browser asks the network for nothing', async () => {
    const asked: { url: string; headers: Record<string, string> }[] = [];
    const renderer = new Renderer({
      executablePath: CHROMIUM,
      timeoutMs: 30_000,
      ownOrigin: 'http://gable.test',
      fetchOwn: () => Promise.resolve({ status: 404, contentType: 'text/plain', body: Buffer.from('') }),
      fetchFont: (url, headers) => {
        asked.push({ url, headers });
        return Promise.resolve({ status: 200, contentType: 'text/css', body: Buffer.from('p { color: #123456 }') });
      },
    });
    try {
      for (let i = 0; i < 3; i++) expect((await renderer.render(FONT_PAGE, 'PostCard')).blocked).toEqual([]);
      expect(asked).toHaveLength(1);
      expect(asked[0]!.url).toBe('https://fonts.googleapis.com/css2?family=Inter');
      expect(asked[0]!.headers['user-agent']).toMatch(/Chrome/); // Google Fonts chooses the font format by it
    } finally {
      await renderer.close();
    }
  });

  it('that cannot be fetched leave the page in its fallback font: the render succeeds', async () => {
    const renderer = new Renderer({
      executablePath: CHROMIUM,
      timeoutMs: 30_000,
      ownOrigin: 'http://gable.test',
      fetchOwn: () => Promise.resolve({ status: 404, contentType: 'text/plain', body: Buffer.from('') }),
      fetchFont: () => Promise.reject(new Error('unreachable')),
    });
    try {
      const rendered = await renderer.render(FONT_PAGE, 'PostCard');
      expect(rendered.blocked).toEqual([]);
      expect(pngSize(rendered.png)).toEqual({ width: 600, height: 408 });
    } finally {
      await renderer.close();
    }
  });
});

describe('photos on other hosts', () => {
  // A 1 × 1 PNG, as a listing's cover photo on an MLS's image host.
  const PHOTO = Buffer.from(
    '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a1d3b3e10000000049454e44ae426082',
    'hex',
  );
  let server: Server;
  let photoUrl: string;
  let hits = 0;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      hits++;
      res.writeHead(200, { 'content-type': 'image/png' }).end(PHOTO);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    // A host name (the sanitiser drops private IP literals from the HTML); the test's resolver puts it on loopback.
    photoUrl = `http://photos.example:${(server.address() as AddressInfo).port}/cover.png`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const onLoopback = async () => [{ address: '127.0.0.1', family: 4 }];

  async function renderWithPhoto(deps: typeof t.deps) {
    const created = await t.app.inject({
      method: 'POST',
      url: `/templates/${templates.Flyer}/instances`,
      headers: agent.headers,
      payload: { html: `<img src="${photoUrl}">` },
    });
    expect(created.statusCode, created.body).toBe(200);
    await renderInstance(deps, created.json().data.id);
    return (await t.app.inject({ url: `/templates/instances/${created.json().data.id}`, headers: agent.bare })).json()
      .data;
  }

  it('are fetched by the render job through the outbound client and inlined: the browser itself loads nothing remote', async () => {
    const instance = await renderWithPhoto({
      ...t.deps,
      outbound: new OutboundHttp({ allowedNetworks: ['127.0.0.1/32'], resolve: onLoopback }),
    });
    expect(instance).toMatchObject({ render_status: 'rendered', render_note: null });
    expect(hits).toBe(1);
  });

  it('stay out where the SSRF guard refuses the host: the instance says what was left out', async () => {
    const before = hits;
    const instance = await renderWithPhoto({ ...t.deps, outbound: new OutboundHttp({ resolve: onLoopback }) }); // loopback refused
    expect(instance.render_status).toBe('rendered');
    expect(instance.render_note).toContain(photoUrl);
    expect(hits).toBe(before);
  });
});
