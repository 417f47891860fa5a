// A loopback round-robin HTTP proxy for the scale-out bench: what a load balancer in front of several `gable serve`
// processes does, small enough to read, with counters of what went wrong where.
//   - Each request goes to the next backend in turn, on a fresh connection (as nginx talks to its upstreams by
//     default): a pooled keep-alive connection can be closed by a stopping server at the moment a request is
//     written to it, and the request could not then be told apart from one the server had started.
//   - A refused connection (ECONNREFUSED) is retried on the next backend, whatever the request: the kernel answered
//     the handshake with a reset because no process listens there, so no byte of the request reached any program
//     and nothing can have acted on it — sending it elsewhere is its first delivery, not a second. That backend
//     then gets no new requests for a second.
//   - A connection reset or closed before any byte of the answer (ECONNRESET, EPIPE, "socket hang up") is retried
//     only for a method that is idempotent by HTTP's rules (GET, HEAD, OPTIONS, PUT, DELETE): the backend may have
//     read the request and acted on it, so a POST (a refresh-token rotation, a contact created) is answered 502
//     and counted, never sent twice.
//   - A 503 answer to an idempotent request is retried too (as HAProxy's `retry-on 503`): a server that is closing
//     answers 503 to a request that reaches it then. To a POST it is passed on, an error.
//   - Once an answer has begun, a failure ends the client's connection (counted).
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
/** Attempts per request (every backend twice), with a short pause after each full turn of refusals. */
const TURNS = 2;
const TURN_PAUSE_MS = 50;
/** How long a backend that refused a connection gets no new requests. */
const DOWN_MS = 1000;

export interface ProxyCounts {
  requests: number;
  /** Connections refused by a backend, each retried on the next (not errors). */
  refused: number;
  /** Resets before the answer of idempotent requests, retried. */
  resetsRetried: number;
  /** 503 answers to idempotent requests, retried (a 503 to another request is passed on: an error). */
  unavailableRetried: number;
  /** Resets before the answer of requests that may not be sent twice: answered 502 (errors). */
  resetsNotRetried: number;
  /** Requests every backend refused, failures once an answer had begun: errors. */
  failed: number;
  /** Requests answered, by backend origin. */
  perBackend: Map<string, number>;
}

export interface RoundRobinProxy {
  readonly url: string;
  readonly counts: ProxyCounts;
  /** Replaces the backends (origins such as http://127.0.0.1:3906); requests in flight keep theirs. */
  setBackends(origins: string[]): void;
  close(): Promise<void>;
}

export async function startRoundRobinProxy(origins: string[]): Promise<RoundRobinProxy> {
  let backends = origins.map((origin) => new URL(origin));
  let next = 0;
  /** Backends that refused a connection are passed over for a moment (as nginx's max_fails / fail_timeout). */
  const downUntil = new Map<string, number>();
  const pick = () => {
    for (let i = 0; i < backends.length; i++) {
      const index = next++ % backends.length;
      if ((downUntil.get(backends[index]!.origin) ?? 0) <= Date.now()) return index;
    }
    return next++ % backends.length; // all of them down: try anyway
  };
  const counts: ProxyCounts = {
    requests: 0,
    refused: 0,
    resetsRetried: 0,
    unavailableRetried: 0,
    resetsNotRetried: 0,
    failed: 0,
    perBackend: new Map(),
  };

  const server: Server = createServer((req, res) => {
    counts.requests++;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      // The client's address is added as load balancers do; TRUST_PROXY=true makes the leftmost one request.ip.
      const forwarded = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');
      const headers = { ...req.headers, connection: 'close', 'x-forwarded-for': forwarded };
      const attempt = (tried: number, index: number) => {
        if (tried >= backends.length * TURNS) {
          counts.failed++;
          res.writeHead(502).end('no backend answered');
          return;
        }
        const backend = backends[index % backends.length]!;
        let answered = false;
        const upstream = httpRequest(
          { host: backend.hostname, port: backend.port, method: req.method, path: req.url, headers, agent: false },
          (answer: IncomingMessage) => {
            if (answer.statusCode === 503 && IDEMPOTENT.has(req.method ?? '') && tried + 1 < backends.length * TURNS) {
              // A stopping server answers 503 to what reaches it while it closes: an idempotent request goes on.
              counts.unavailableRetried++;
              answer.resume();
              attempt(tried + 1, index + 1);
              return;
            }
            answered = true;
            counts.perBackend.set(backend.origin, (counts.perBackend.get(backend.origin) ?? 0) + 1);
            // Hop-by-hop: the backend closes its connection after each answer, the client's stays open.
            const { connection: _connection, 'keep-alive': _keepAlive, ...passed } = answer.headers;
            res.writeHead(answer.statusCode ?? 502, passed);
            answer.pipe(res);
            answer.on('error', () => {
              counts.failed++;
              res.destroy();
            });
          },
        );
        upstream.on('error', (error: NodeJS.ErrnoException) => {
          if (answered) return; // the answer's own error handler counted it
          // The backend after this one (not the next of the shared turn, which may be this one again).
          const retry = () => {
            const pause = (tried + 1) % backends.length === 0 ? TURN_PAUSE_MS : 0;
            setTimeout(() => attempt(tried + 1, index + 1), pause);
          };
          if (error.code === 'ECONNREFUSED') {
            counts.refused++;
            downUntil.set(backend.origin, Date.now() + DOWN_MS);
            retry();
          } else if (IDEMPOTENT.has(req.method ?? '')) {
            counts.resetsRetried++;
            retry();
          } else {
            counts.resetsNotRetried++;
            res.writeHead(502).end(`${backend.origin}: ${error.code ?? error.message} before an answer`);
          }
        });
        upstream.end(body);
      };
      attempt(0, pick());
    });
  });
  // Client connections stay open between requests (the load generator keeps them alive).
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts,
    setBackends(list) {
      backends = list.map((origin) => new URL(origin));
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
