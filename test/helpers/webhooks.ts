// Test support for the webhook tests: an admin with a token, and a loopback receiver that records requests.
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Deps } from '../../src/platform/deps.js';
import { attemptDelivery } from '../../src/modules/webhooks/deliveries.service.js';
import { fanOutStep } from '../../src/modules/webhooks/fanout.js';
import { fanOutTask } from '../../src/modules/webhooks/webhooks.tasks.js';
import { chunkRowsOf } from '../../src/jobs/task.js';
import { addMembership, bearer, createBrand, createUser, tokenFor } from './factories.js';

/** A new user with these ACL words in `brand` (a new brand by default). */
export async function brandUser(deps: Deps, options: { brand?: string; acl?: string[] } = {}) {
  const brand = options.brand ?? (await createBrand(deps)).id;
  const user = await createUser(deps);
  await addMembership(deps, user.id, brand, options.acl ?? ['Admin']);
  const token = await tokenFor(deps, user.id);
  return { brand, user: user.id, headers: bearer(token) };
}

export interface Received {
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Responder = (req: IncomingMessage, res: ServerResponse, received: Received) => void;

/** A loopback HTTP receiver; `respond` decides each answer (default 204). */
export class Receiver {
  readonly received: Received[] = [];
  respond: Responder = (_req, res) => res.writeHead(204).end();
  private server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const received = { url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() };
      this.received.push(received);
      this.respond(req, res, received);
    });
  });

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/**
 * Fans out until the outbox holds nothing after the position: also waits out committed events that a running
 * transaction holds back (on PostgreSQL, any database's transaction on the server can, for a moment).
 */
export async function fanOutAll(deps: Deps): Promise<void> {
  for (let round = 0; round < 1000; round++) {
    const step = await fanOutStep(deps, chunkRowsOf(fanOutTask, deps));
    if (step.events === 0 && !step.heldBack) return;
    if (step.events === 0) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the outbox did not drain');
}

/** Runs every pending delivery that is due at the test clock's now, once; returns how many ran. */
export async function runDue(deps: Deps, options: { timeoutMs?: number } = {}): Promise<number> {
  const due = await deps.db
    .selectFrom('webhook_deliveries')
    .select(['id', 'attempts'])
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', deps.clock.now())
    .orderBy('created_at')
    .execute();
  for (const row of due) await attemptDelivery(deps, row.id, row.attempts + 1, options);
  return due.length;
}
