// A loopback webhook receiver that counts what arrives by `webhook-id` (the delivery id, the same on every retry),
// for the scale-out bench: each delivery must arrive at least once, and a repeat only with the same id. Requests to
// `/hold` are held unanswered while holding is on (a worker's jobs caught in flight), answered 204 once released.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readdir, readFile, readlink } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';

export interface ReceivedBody {
  topic: string;
  event: string;
  payload: Record<string, unknown>;
}

export interface WebhookReceiver {
  readonly port: number;
  url(path: string): string;
  /** Arrivals by webhook-id. */
  readonly arrivals: ReadonlyMap<string, number>;
  /** The first body of each webhook-id. */
  readonly bodies: ReadonlyMap<string, ReceivedBody>;
  /** Requests to /hold waiting for release, by webhook-id. */
  held(): string[];
  /** The process holding each held request's connection, among `pids` (Linux /proc). */
  heldBy(pids: number[]): Promise<Map<number, string[]>>;
  /** Answers the held requests still open (204) and every later /hold at once. */
  release(): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const arrivals = new Map<string, number>();
  const bodies = new Map<string, ReceivedBody>();
  const held = new Map<string, { req: IncomingMessage; res: ServerResponse }>();
  let holding = true;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const id = String(req.headers['webhook-id'] ?? '');
      arrivals.set(id, (arrivals.get(id) ?? 0) + 1);
      if (!bodies.has(id)) bodies.set(id, JSON.parse(Buffer.concat(chunks).toString()) as ReceivedBody);
      if (req.url === '/hold' && holding) {
        held.set(id, { req, res });
        // A held request whose worker was killed: its connection closes with no answer.
        res.on('close', () => held.delete(id));
        return;
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    arrivals,
    bodies,
    held: () => [...held.keys()],
    async heldBy(pids) {
      const owners = await socketOwners(pids, port);
      const byPid = new Map<number, string[]>(pids.map((pid) => [pid, []]));
      for (const [id, { req }] of held) {
        const pid = owners.get(req.socket.remotePort ?? 0);
        if (pid !== undefined) byPid.get(pid)!.push(id);
      }
      return byPid;
    },
    release() {
      holding = false;
      for (const { res } of held.values()) res.writeHead(204).end();
      held.clear();
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * Which of `pids` owns each loopback TCP connection to `port`, by the connection's local port: /proc/net/tcp maps
 * a local port to a socket inode, /proc/PID/fd a socket inode to its process.
 */
async function socketOwners(pids: number[], port: number): Promise<Map<number, number>> {
  const inodeToPort = new Map<string, number>();
  for (const line of (await readFile('/proc/net/tcp', 'utf8')).split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 10) continue;
    const localPort = parseInt(fields[1]!.split(':')[1]!, 16);
    const remotePort = parseInt(fields[2]!.split(':')[1]!, 16);
    if (remotePort === port) inodeToPort.set(fields[9]!, localPort);
  }
  const owners = new Map<number, number>();
  for (const pid of pids) {
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => []);
    for (const fd of fds) {
      const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      const localPort = inode === undefined ? undefined : inodeToPort.get(inode);
      if (localPort !== undefined) owners.set(localPort, pid);
    }
  }
  return owners;
}
