// The outbound client against real loopback servers, and the SSRF table of the guard.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NetworkPolicy } from './network-guard.js';
import { OutboundError, OutboundHttp } from './outbound.js';

async function failure(promise: Promise<unknown>): Promise<OutboundError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof OutboundError) return error;
    throw error;
  }
  throw new Error('expected the request to fail');
}

describe('SSRF guard: refused addresses', () => {
  const guard = new OutboundHttp({ resolve: async () => [{ address: '93.184.216.34', family: 4 }] });
  const table: [string, string][] = [
    ['http://127.0.0.1/', 'loopback'],
    ['http://127.1/', 'loopback'],
    ['http://0x7f000001/', 'loopback'],
    ['http://017700000001/', 'loopback'],
    ['http://2130706433/', 'loopback'],
    ['http://0177.0.0.1/', 'loopback'],
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://[::ffff:7f00:1]/', 'loopback'],
    ['http://[0:0:0:0:0:ffff:10.0.0.1]/', 'private'],
    ['http://[::127.0.0.1]/', 'ipv4Compatible'],
    ['http://[::1]/', 'loopback'],
    ['http://[::]/', 'unspecified'],
    ['http://0.0.0.0/', 'unspecified'],
    ['http://0/', 'unspecified'],
    ['http://10.0.0.1/', 'private'],
    ['http://172.16.5.4/', 'private'],
    ['http://192.168.1.1/', 'private'],
    ['http://169.254.169.254/latest/meta-data', 'linkLocal'],
    ['http://100.64.0.1/', 'carrierGradeNat'],
    ['http://224.0.0.1/', 'multicast'],
    ['http://255.255.255.255/', 'broadcast'],
    ['http://240.0.0.1/', 'reserved'],
    ['http://[fd00::1]/', 'uniqueLocal'],
    ['http://[fc00::1]/', 'uniqueLocal'],
    ['http://[fe80::1]/', 'linkLocal'],
    ['http://[ff02::1]/', 'multicast'],
    ['http://[64:ff9b::7f00:1]/', 'rfc6052'],
    ['http://[2002:7f00:1::]/', '6to4'],
    ['https://[fec0::1]/', 'deprecatedSiteLocal'],
  ];
  it.each(table)('%s is refused (%s)', async (url, reason) => {
    const error = await failure(guard.check(url));
    expect(error.kind).toBe('refused_address');
    expect(error.message).toContain(reason);
  });

  it('lets public addresses through, by literal and by name', async () => {
    await expect(guard.check('https://93.184.216.34/hook')).resolves.toMatchObject({
      address: '93.184.216.34',
      family: 4,
    });
    await expect(guard.check('https://[2606:4700:4700::1111]/')).resolves.toMatchObject({
      address: '2606:4700:4700::1111',
      family: 6,
    });
    await expect(guard.check('https://hooks.example.com/x')).resolves.toMatchObject({ address: '93.184.216.34' });
  });

  it('refuses a name that resolves to a private address (the system resolver: localhost)', async () => {
    const error = await failure(new OutboundHttp().check('http://localhost:8080/hook'));
    expect(error.kind).toBe('refused_address');
    expect(error.message).toMatch(/loopback/);
  });

  it('refuses a name when any one of its addresses is refused (rebinding with a mixed answer)', async () => {
    const mixed = new OutboundHttp({
      resolve: async () => [
        { address: '93.184.216.34', family: 4 },
        { address: '10.1.2.3', family: 4 },
      ],
    });
    expect((await failure(mixed.check('https://rebind.example/'))).message).toContain('10.1.2.3: private');
  });

  it('refuses other schemes, credentials, garbage and names that do not resolve', async () => {
    expect((await failure(guard.check('ftp://93.184.216.34/'))).kind).toBe('invalid_url');
    expect((await failure(guard.check('file:///etc/passwd'))).kind).toBe('invalid_url');
    expect((await failure(guard.check('https://user:pw@93.184.216.34/'))).kind).toBe('invalid_url');
    expect((await failure(guard.check('not a url'))).kind).toBe('invalid_url');
    const nowhere = new OutboundHttp({ resolve: async () => Promise.reject(new Error('ENOTFOUND')) });
    expect((await failure(nowhere.check('https://nowhere.invalid/'))).kind).toBe('dns');
  });

  it('opens exactly the configured networks', () => {
    const policy = new NetworkPolicy(['127.0.0.0/8', '10.9.0.0/16', '::1']);
    expect(policy.refusal('127.0.0.1')).toBeNull();
    expect(policy.refusal('::ffff:127.0.0.1')).toBeNull();
    expect(policy.refusal('::1')).toBeNull();
    expect(policy.refusal('10.9.3.4')).toBeNull();
    expect(policy.refusal('10.8.3.4')).toBe('private');
    expect(policy.refusal('192.168.0.1')).toBe('private');
    expect(policy.refusal('169.254.169.254')).toBe('linkLocal');
  });
});

describe('outbound requests against a loopback server', () => {
  let server: Server;
  let base: string;
  const seen: { url: string; host: string; method: string; body: string }[] = [];
  const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
    '/ok': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('fine'),
    '/redirect': (_req, res) => res.writeHead(302, { location: '/ok' }).end(),
    '/redirect-loopback6': (_req, res) => res.writeHead(307, { location: 'http://[::1]/ok' }).end(),
    '/huge': (_req, res) => {
      res.writeHead(200);
      res.write(Buffer.alloc(64 * 1024, 'a'));
      res.end(Buffer.alloc(64 * 1024, 'b'));
    },
    '/never': () => undefined,
    '/slow-body': (_req, res) => {
      res.writeHead(200);
      res.write('a');
    },
  };

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({
          url: req.url ?? '',
          host: req.headers.host ?? '',
          method: req.method ?? '',
          body: Buffer.concat(chunks).toString(),
        });
        (routes[req.url ?? ''] ?? ((_q, r: ServerResponse) => r.writeHead(404).end()))(req, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const open = () => new OutboundHttp({ allowedNetworks: ['127.0.0.1/32'] });

  it('refuses the loopback server unless its network is allowed', async () => {
    const before = seen.length;
    expect((await failure(new OutboundHttp().request({ url: `${base}/ok` }))).kind).toBe('refused_address');
    expect(seen.length).toBe(before);
    const response = await open().request({
      url: `${base}/ok`,
      method: 'POST',
      body: '{"a":1}',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe('fine');
    expect(seen.at(-1)).toMatchObject({ url: '/ok', method: 'POST', body: '{"a":1}' });
  });

  it('connects to the address it checked, resolving once, and keeps the host name in Host', async () => {
    let lookups = 0;
    const client = new OutboundHttp({
      allowedNetworks: ['127.0.0.1/32'],
      resolve: async () => {
        lookups += 1;
        // a rebinding resolver: the first answer passes the guard, any later one would not
        return lookups === 1 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '10.0.0.1', family: 4 }];
      },
    });
    const port = (server.address() as AddressInfo).port;
    const response = await client.request({ url: `http://receiver.test:${port}/ok` });
    expect(response.status).toBe(200);
    expect(response.address).toBe('127.0.0.1');
    expect(lookups).toBe(1);
    expect(seen.at(-1)?.host).toBe(`receiver.test:${port}`);
  });

  it('returns a redirect without following it', async () => {
    const before = seen.length;
    const response = await open().request({ url: `${base}/redirect` });
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe('/ok');
    expect(seen.slice(before).map((s) => s.url)).toEqual(['/redirect']);
  });

  it('follows redirects only when asked, checking every hop', async () => {
    const response = await open().request({ url: `${base}/redirect`, followRedirects: true });
    expect(response.status).toBe(200);
    const error = await failure(open().request({ url: `${base}/redirect-loopback6`, followRedirects: true }));
    expect(error.kind).toBe('refused_address');
  });

  it('gives up at the deadline when the server never answers, or never finishes the body', async () => {
    expect((await failure(open().request({ url: `${base}/never`, timeoutMs: 150 }))).kind).toBe('timeout');
    expect((await failure(open().request({ url: `${base}/slow-body`, timeoutMs: 150 }))).kind).toBe('timeout');
  });

  it('refuses a response larger than the cap', async () => {
    expect((await failure(open().request({ url: `${base}/huge`, maxResponseBytes: 1000 }))).kind).toBe('too_large');
    expect((await open().request({ url: `${base}/huge`, maxResponseBytes: 200_000 })).body.length).toBe(128 * 1024);
  });

  it('reports a refused connection as a network failure', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect((await failure(open().request({ url: `http://127.0.0.1:${port}/` }))).kind).toBe('network');
  });

  it('keeps the connection alive between requests to one address', async () => {
    let connections = 0;
    const count = () => connections++;
    server.on('connection', count);
    const client = open();
    try {
      for (let i = 0; i < 5; i++) expect((await client.request({ url: `${base}/ok` })).status).toBe(200);
      expect(connections).toBe(1);
    } finally {
      server.off('connection', count);
      client.close();
    }
  });

  it('sends again on a fresh connection when the receiver closed the kept one as it was reused', async () => {
    // A receiver that closes every connection right after its answer, without saying so (no Connection: close).
    const rude = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.end('ok', () => req.socket.destroy()));
    });
    await new Promise<void>((resolve) => rude.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(rude.address() as AddressInfo).port}/`;
    const client = open();
    try {
      for (let i = 0; i < 5; i++) {
        expect((await client.request({ url, method: 'POST', body: `n=${i}` })).status).toBe(200);
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      client.close();
      await new Promise((resolve) => rude.close(resolve));
    }
  });

  it('counts requests by caller and outcome', async () => {
    const registry = new Registry();
    const client = new OutboundHttp({ allowedNetworks: ['127.0.0.1/32'], registry });
    await client.request({ url: `${base}/ok`, purpose: 'webhook' });
    await failure(client.request({ url: 'http://10.0.0.1/', purpose: 'webhook' }));
    const text = await registry.metrics();
    expect(text).toContain('gable_outbound_requests_total{purpose="webhook",outcome="2xx"} 1');
    expect(text).toContain('gable_outbound_requests_total{purpose="webhook",outcome="refused_address"} 1');
  });
});
