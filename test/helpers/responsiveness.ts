// A client that polls a running server from a thread of its own (its own event loop: when the server's thread is
// stuck, the client still sends on time and sees the wait) — `GET /health` and `GET /users/self` every 100 ms
// by default — and what it saw: every answer's status and latency (issue 35 item 4).
import { Worker } from 'node:worker_threads';

export interface Probe {
  path: string;
  status: number;
  ms: number;
  /** When it was sent (epoch ms: the threads' performance clocks have different origins). */
  at: number;
}

export interface Latencies {
  count: number;
  failed: number;
  p50: number;
  p99: number;
  max: number;
}

// CommonJS, run by the worker thread as it is. A probe that gets no answer within 30 s counts as status 0.
const POLLER = `
const { parentPort, workerData } = require('node:worker_threads');
const { baseUrl, token, intervalMs } = workerData;
const probes = [];
const pending = new Set();
function probe(path, headers) {
  const sent = performance.now();
  const at = Date.now();
  const done = fetch(baseUrl + path, { headers, signal: AbortSignal.timeout(30000) })
    .then(async (res) => { await res.arrayBuffer(); return res.status; }, () => 0)
    .then((status) => { probes.push({ path, status, ms: performance.now() - sent, at }); pending.delete(done); });
  pending.add(done);
}
const timer = setInterval(() => {
  probe('/health', {});
  probe('/users/self', { authorization: 'Bearer ' + token });
}, intervalMs);
parentPort.once('message', async () => {
  clearInterval(timer);
  await Promise.all(pending);
  parentPort.postMessage(probes);
});
`;

export interface Poller {
  /** Stops sending, waits for the answers still due, and hands back every probe. */
  stop(): Promise<Probe[]>;
}

export function startPoller(baseUrl: string, token: string, intervalMs = 100): Poller {
  const worker = new Worker(POLLER, { eval: true, workerData: { baseUrl, token, intervalMs } });
  const result = new Promise<Probe[]>((resolve, reject) => {
    worker.once('message', (probes: Probe[]) => resolve(probes));
    worker.once('error', reject);
  });
  return {
    async stop() {
      worker.postMessage('stop');
      const probes = await result;
      await worker.terminate();
      return probes;
    },
  };
}

export function latencies(probes: readonly Probe[]): Latencies {
  const sorted = probes.map((p) => p.ms).sort((a, b) => a - b);
  const at = (q: number) =>
    sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  const round = (ms: number) => Math.round(ms);
  return {
    count: probes.length,
    failed: probes.filter((p) => p.status !== 200).length,
    p50: round(at(0.5)),
    p99: round(at(0.99)),
    max: round(sorted.at(-1) ?? 0),
  };
}
