// The real app listening on a loopback port, with BASE_URL pointing at it (cookies and redirects as in
// production), on a fresh test database.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { buildTestApp, type TestApp } from '../helpers/app.js';

export interface RunningGable extends TestApp {
  url: string;
}

/** A port free right now: BASE_URL must be known before the app is built. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

export async function startGable(): Promise<RunningGable> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const t = await buildTestApp({ env: { BASE_URL: url } });
  await t.app.listen({ port, host: '127.0.0.1' });
  return { ...t, url };
}
