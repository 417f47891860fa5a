// The real app listening on a loopback port, with BASE_URL pointing at it (cookies and redirects as in
// production), on a fresh test database.
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { freePort } from '../helpers/ports.js';

export interface RunningGable extends TestApp {
  url: string;
}

export async function startGable(): Promise<RunningGable> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const t = await buildTestApp({ env: { BASE_URL: url } });
  await t.app.listen({ port, host: '127.0.0.1' });
  return { ...t, url };
}
