// Remote photos inlined for the renderer: fetched through the outbound client (so the SSRF guard decides),
// images only, size-capped, and anything that fails left for the renderer to block and report.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundHttp } from '../lib/outbound.js';
import { inlineRemoteImages, MAX_IMAGE_BYTES } from './remote-images.js';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a1d3b3e10000000049454e44ae426082',
  'hex',
);
let server: Server;
let origin: string;
const hits: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/cover.png?w=600&h=400') return res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    if (req.url === '/moved.png') return res.writeHead(302, { location: '/cover.png?w=600&h=400' }).end();
    if (req.url === '/page.html') return res.writeHead(200, { 'content-type': 'text/html' }).end('<p>not an image</p>');
    if (req.url === '/huge.png')
      return res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(MAX_IMAGE_BYTES + 1));
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const DATA_URL = `data:image/png;base64,${PNG.toString('base64')}`;

describe('inlineRemoteImages', () => {
  it('inlines images named by src and CSS url(), following redirects, and leaves own and font URLs alone', async () => {
    const outbound = new OutboundHttp({ allowedNetworks: ['127.0.0.1/32'] });
    const html = [
      `<img src="${origin}/cover.png?w=600&amp;h=400">`,
      `<div style="background-image: url('${origin}/moved.png')"></div>`,
      '<img src="http://gable.test/files/00000000-0000-4000-8000-000000000001/file">',
      '<style>@font-face { src: url(https://fonts.gstatic.com/s/inter.woff2) }</style>',
    ].join('');
    const page = await inlineRemoteImages(outbound, html, 'http://gable.test');
    expect(page.failed).toEqual([]);
    expect(page.html).toBe(
      [
        `<img src="${DATA_URL}">`,
        `<div style="background-image: url('${DATA_URL}')"></div>`,
        '<img src="http://gable.test/files/00000000-0000-4000-8000-000000000001/file">',
        '<style>@font-face { src: url(https://fonts.gstatic.com/s/inter.woff2) }</style>',
      ].join(''),
    );
  });

  it('leaves what is not an image, missing, too large or refused by the SSRF guard, and says why', async () => {
    const outbound = new OutboundHttp({ allowedNetworks: ['127.0.0.1/32'] });
    const html = `<img src="${origin}/page.html"><img src="${origin}/gone.png"><img src="${origin}/huge.png">`;
    const page = await inlineRemoteImages(outbound, html, 'http://gable.test');
    expect(page.html).toBe(html);
    expect(Object.fromEntries(page.failed.map((f) => [new URL(f.url).pathname, f.reason]))).toEqual({
      '/page.html': 'not an image (text/html)',
      '/gone.png': 'answered 404',
      '/huge.png': expect.stringMatching(/^too_large/),
    });

    const guarded = new OutboundHttp(); // the default policy: loopback is refused before any connection
    const before = hits.length;
    const refused = await inlineRemoteImages(
      guarded,
      `<img src="${origin}/cover.png?w=600&amp;h=400">`,
      'http://gable.test',
    );
    expect(refused.failed[0]?.reason).toMatch(/^refused_address/);
    expect(hits.length).toBe(before);
  });
});
