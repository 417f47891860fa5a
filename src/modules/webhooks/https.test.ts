// Deliveries to an https receiver: the socket goes to the address the guard resolved, TLS is spoken to the
// URL's host (SNI and certificate check against the name, never the IP), and a certificate that does not name
// the host, or that nobody trusts, fails the attempt.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { createBrand } from '../../../test/helpers/factories.js';
import type { Deps } from '../../platform/deps.js';
import { recordEvent } from '../../events/outbox.js';
import { OutboundHttp } from '../../lib/outbound.js';
import { attemptDelivery } from './deliveries.service.js';
import { fanOutAll } from '../../../test/helpers/webhooks.js';

const fixture = (name: string) => readFileSync(new URL(`../../../test/fixtures/tls/${name}`, import.meta.url), 'utf8');
const CERT = fixture('hooks.test.crt');
const KEY = fixture('hooks.test.key');

interface Seen {
  servername: string | false | null;
  host: string | undefined;
  localAddress: string | undefined;
  headers: Record<string, string>;
  body: string;
}

const t = useTestApp();
const seen: Seen[] = [];
const server: Server = createServer({ key: KEY, cert: CERT }, (req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const socket = req.socket as TLSSocket;
    seen.push({
      servername: socket.servername,
      host: req.headers.host,
      localAddress: socket.localAddress,
      headers: req.headers as Record<string, string>,
      body: Buffer.concat(chunks).toString(),
    });
    res.writeHead(204).end();
  });
});
let port = 0;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** The real outbound client, with names that resolve to the loopback receiver (as a DNS answer would). */
function outbound(trust: boolean): OutboundHttp {
  return new OutboundHttp({
    allowedNetworks: ['127.0.0.1/32'],
    resolve: async (name) =>
      name === 'hooks.test' || name === 'other.test' ? [{ address: '127.0.0.1', family: 4 }] : [],
    ...(trust ? { trustedCertificates: [CERT] } : {}),
  });
}

/** A Deals webhook on `url` with one pending delivery; returns its key and the delivery. */
async function pendingDelivery(url: string): Promise<{ key: string; delivery: string }> {
  const brand = (await createBrand(t.deps)).id;
  const key = randomBytes(32).toString('hex');
  const hook = await t.deps.db
    .insertInto('brand_webhooks')
    .values({ brand, topic: 'Deals', url, key_sealed: t.deps.secrets.encrypt(key) })
    .returning('id')
    .executeTakeFirstOrThrow();
  await t.deps.db
    .transaction()
    .execute((trx) =>
      recordEvent(trx, { brand, topic: 'Deals', event: 'Created', subject: hook.id, payload: { n: 1 } }),
    );
  await fanOutAll(t.deps);
  const row = await t.deps.db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('webhook', '=', hook.id)
    .executeTakeFirstOrThrow();
  return { key, delivery: row.id };
}

const deliveryRow = (id: string) =>
  t.deps.db
    .selectFrom('webhook_deliveries')
    .select(['status', 'last_status', 'last_error'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

describe('an https receiver', () => {
  it('is reached at the resolved address with SNI and Host naming the URL’s host; the delivery verifies', async () => {
    const { key, delivery } = await pendingDelivery(`https://hooks.test:${port}/hook`);
    const deps: Deps = { ...t.deps, outbound: outbound(true) };
    await attemptDelivery(deps, delivery, 1);
    expect(await deliveryRow(delivery)).toMatchObject({ status: 'delivered', last_status: 204 });
    const [got, ...more] = seen.splice(0);
    expect(more).toEqual([]);
    expect(got).toMatchObject({ servername: 'hooks.test', host: `hooks.test:${port}`, localAddress: '127.0.0.1' });
    const secret = `whsec_${Buffer.from(key, 'hex').toString('base64')}`;
    expect(new Webhook(secret).verify(got!.body, got!.headers)).toMatchObject({ topic: 'Deals', event: 'Created' });
  });

  it('fails the attempt when the certificate does not name the URL’s host, though the address is the same', async () => {
    const { delivery } = await pendingDelivery(`https://other.test:${port}/hook`);
    await attemptDelivery({ ...t.deps, outbound: outbound(true) }, delivery, 1);
    const row = await deliveryRow(delivery);
    expect(row).toMatchObject({ status: 'pending', last_status: null });
    expect(row.last_error).toMatch(/^network: .*(altnames|other\.test)/);
    expect(seen.splice(0)).toEqual([]);
  });

  it('fails the attempt when nobody trusts the certificate', async () => {
    const { delivery } = await pendingDelivery(`https://hooks.test:${port}/hook`);
    await attemptDelivery({ ...t.deps, outbound: outbound(false) }, delivery, 1);
    const row = await deliveryRow(delivery);
    expect(row).toMatchObject({ status: 'pending', last_status: null });
    expect(row.last_error).toMatch(/^network: .*self[- ]signed/i);
    expect(seen.splice(0)).toEqual([]);
  });
});
