// Load generation. autocannon for throughput (req/s, p50, p99); a closed loop with exact percentiles for the
// scenarios whose targets are stated as p95.
import autocannon from 'autocannon';
import http from 'node:http';
import { cpuBetween } from './cpu.js';
import { meterOf } from './processes.js';

export interface LoadResult {
  name: string;
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p95?: number;
  p99: number;
  /** CPU milliseconds per request of the server under load and its database sessions (bench/lib/cpu.ts). */
  cpuMs?: number;
  /** The part of cpuMs spent in the server process itself (the rest is its database sessions'). */
  serverCpuMs?: number;
}

/** Runs `load` and adds the CPU per request of the server at `url`, when the bench started that server. */
async function metered(url: string, load: () => Promise<LoadResult>): Promise<LoadResult> {
  const meter = meterOf(url);
  if (!meter) return load();
  const before = await meter.read();
  const result = await load();
  const used = cpuBetween(before, await meter.read());
  return result.requests > 0
    ? { ...result, cpuMs: used.total / result.requests, serverCpuMs: used.server / result.requests }
    : result;
}

export interface CannonOptions {
  name: string;
  url: string;
  connections?: number;
  duration?: number;
  amount?: number;
  requests?: autocannon.Request[];
  headers?: Record<string, string>;
  method?: 'GET' | 'POST';
  body?: string;
}

export async function cannon(options: CannonOptions): Promise<LoadResult> {
  return metered(options.url, () => unmeteredCannon(options));
}

async function unmeteredCannon(options: CannonOptions): Promise<LoadResult> {
  const started = performance.now();
  let lastAnswer = started;
  const instance = autocannon({
    url: options.url,
    connections: options.connections ?? 10,
    ...(options.amount ? { amount: options.amount } : { duration: options.duration ?? 10 }),
    ...(options.requests ? { requests: options.requests } : {}),
    headers: options.headers ?? {},
    method: options.method ?? 'GET',
    ...(options.body ? { body: options.body } : {}),
  }) as unknown as Promise<autocannon.Result> & { on(event: 'response', listener: () => void): void };
  instance.on('response', () => (lastAnswer = performance.now()));
  const result = await instance;
  // autocannon ends a load at its next one-second tick, so a load of a fixed amount (the refresh grant's pool of
  // tokens) lasted, by its count, a whole number of seconds: 6,000 refreshes read as 2,000/s or 3,000/s. Such a
  // load is timed to its last answer instead.
  const seconds = options.amount ? (lastAnswer - started) / 1000 : result.duration;
  const non2xx = result.non2xx + result.errors + result.timeouts;
  return {
    name: options.name,
    requests: result.requests.total,
    errors: non2xx,
    // Requests over the elapsed time, not autocannon's mean of its per-second counts.
    rps: result.requests.total / seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
  };
}

export interface LoopRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Closed loop: `concurrency` workers each send the next request as soon as the last answered. */
export async function closedLoop(
  name: string,
  baseUrl: string,
  next: (i: number) => LoopRequest,
  options: { concurrency?: number; requests: number },
): Promise<LoadResult> {
  return metered(baseUrl, () => unmeteredClosedLoop(name, baseUrl, next, options));
}

async function unmeteredClosedLoop(
  name: string,
  baseUrl: string,
  next: (i: number) => LoopRequest,
  options: { concurrency?: number; requests: number },
): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency ?? 4 });
  const latencies: number[] = [];
  let errors = 0;
  let issued = 0;
  const started = performance.now();
  const worker = async () => {
    while (issued < options.requests) {
      const request = next(issued++);
      const t0 = performance.now();
      const status = await send(agent, baseUrl, request);
      latencies.push(performance.now() - t0);
      if (status < 200 || status >= 300) errors++;
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 4 }, worker));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
  return {
    name,
    requests: latencies.length,
    errors,
    rps: latencies.length / seconds,
    p50: at(50),
    p95: at(95),
    p99: at(99),
  };
}

function send(agent: http.Agent, baseUrl: string, request: LoopRequest): Promise<number> {
  return exchange(agent, baseUrl, request).then((answer) => answer.status);
}

/** One request on `agent`; the answer's body is read only when `readBody` (a load generator that needs it). */
export function exchange(
  agent: http.Agent,
  baseUrl: string,
  request: LoopRequest,
  readBody = false,
): Promise<{ status: number; body: string }> {
  const url = new URL(request.path, baseUrl);
  const body = request.body === undefined ? undefined : JSON.stringify(request.body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: request.method,
        agent,
        headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...request.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        if (readBody) res.on('data', (chunk: Buffer) => chunks.push(chunk));
        else res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
