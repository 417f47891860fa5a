// The one HTTP client for everything the server calls (webhooks, push providers, Microsoft Graph). It resolves
// the host itself, refuses addresses the NetworkPolicy refuses (the SSRF guard), and connects to exactly the
// address it checked: node:http's `lookup` hook hands the socket that address, so a second DNS answer cannot
// slip in between check and connect, while Host and TLS SNI still carry the URL's host name. One deadline
// covers lookup, connect and the whole response; bodies beyond `maxResponseBytes` are refused; redirects are
// returned, not followed, unless asked (each hop is then checked again). Connections are kept alive per checked
// address (a busy receiver or push service costs no handshake per request); a kept connection only ever goes to
// the address it was opened to, which the guard let through.
import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { Counter, Histogram, type Registry } from 'prom-client';
import { NetworkPolicy, bareHost } from './network-guard.js';

export interface OutboundRequest {
  method?: string;
  url: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Deadline for the whole exchange, lookup to last byte (default 15 s). */
  timeoutMs?: number;
  /** Larger responses fail with `too_large` (default 1 MiB). */
  maxResponseBytes?: number;
  /** Follow 301/302/303/307/308 (at most 5 hops, each checked by the guard). Default false: a 3xx is returned. */
  followRedirects?: boolean;
  /** Metrics label: who calls (`webhook`, `push`…). */
  purpose?: string;
}

export interface OutboundResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The address the request went to. */
  address: string;
  durationMs: number;
}

export type OutboundFailure =
  'invalid_url' | 'refused_address' | 'dns' | 'timeout' | 'too_large' | 'network' | 'too_many_redirects';

export class OutboundError extends Error {
  constructor(
    readonly kind: OutboundFailure,
    message: string,
    readonly durationMs = 0,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

/** A reused keep-alive connection was reset before any answer: the request never reached the receiver. */
class StaleConnectionError extends Error {}

export interface ResolvedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export interface OutboundOptions {
  /** CIDRs the guard lets through (WEBHOOK_ALLOWED_NETWORKS): loopback receivers in tests, private deployments. */
  allowedNetworks?: readonly string[];
  /** Metrics go here (the app's registry). */
  registry?: Registry;
  /** DNS resolution (default: the system resolver, every address). */
  resolve?: Resolver;
  /** Certificates trusted for https on top of Node's bundle (a private CA; tests' self-signed receivers). */
  trustedCertificates?: readonly string[];
}

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_MAX_BYTES = 1024 * 1024;
const MAX_HOPS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Addresses with kept-alive connections at once; the least recently used one is closed beyond. */
const MAX_AGENTS = 512;
const MAX_IDLE_SOCKETS_PER_HOST = 32;

export class OutboundHttp {
  readonly policy: NetworkPolicy;
  private readonly resolver: Resolver;
  private readonly ca?: string[];
  private readonly requests?: Counter<'purpose' | 'outcome'>;
  private readonly duration?: Histogram<'purpose'>;
  /** One keep-alive agent per protocol, checked address and port (most recently used last). */
  private readonly agents = new Map<string, http.Agent>();

  constructor(options: OutboundOptions = {}) {
    this.policy = new NetworkPolicy(options.allowedNetworks);
    this.resolver = options.resolve ?? ((hostname) => dnsLookup(hostname, { all: true, verbatim: true }));
    if (options.trustedCertificates?.length) this.ca = [...tls.rootCertificates, ...options.trustedCertificates];
    if (options.registry) {
      this.requests = new Counter({
        name: 'gable_outbound_requests_total',
        help: 'Outbound HTTP requests by caller and outcome (status class or failure kind)',
        labelNames: ['purpose', 'outcome'] as const,
        registers: [options.registry],
      });
      this.duration = new Histogram({
        name: 'gable_outbound_request_duration_seconds',
        help: 'Outbound HTTP request duration by caller',
        labelNames: ['purpose'] as const,
        buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30],
        registers: [options.registry],
      });
    }
  }

  /**
   * Parses and resolves `url` and checks every address it resolves to (one refused address refuses the URL:
   * a name that answers both a public and a private address is a rebinding attempt). Used at create time by
   * features that store a URL, and before every request.
   */
  async check(rawUrl: string): Promise<ResolvedTarget> {
    let url: URL;
    try {
      // The WHATWG parser already rewrites 127.1, 0x7f000001 and 017700000001 to 127.0.0.1.
      url = new URL(rawUrl);
    } catch {
      throw new OutboundError('invalid_url', 'is not an absolute URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new OutboundError('invalid_url', 'must use http or https');
    if (url.username || url.password) throw new OutboundError('invalid_url', 'must not carry credentials');
    const host = bareHost(url.hostname);
    let answers: { address: string; family: number }[];
    if (isIP(host)) answers = [{ address: host, family: isIP(host) }];
    else {
      try {
        answers = await this.resolver(host);
      } catch {
        throw new OutboundError('dns', `host ${host} does not resolve`);
      }
    }
    if (answers.length === 0) throw new OutboundError('dns', `host ${host} does not resolve`);
    for (const answer of answers) {
      const reason = this.policy.refusal(answer.address);
      if (reason)
        throw new OutboundError('refused_address', `points at a refused address (${answer.address}: ${reason})`);
    }
    const first = answers[0]!;
    return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
  }

  async request(request: OutboundRequest): Promise<OutboundResponse> {
    const started = performance.now();
    const deadline = started + (request.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const purpose = request.purpose ?? 'other';
    try {
      let current = request;
      for (let hop = 0; ; hop++) {
        const response = await this.once(current, deadline, started);
        const location = response.headers.location;
        if (!request.followRedirects || !REDIRECTS.has(response.status) || !location) {
          this.record(purpose, `${Math.floor(response.status / 100)}xx`, started);
          return response;
        }
        if (hop + 1 >= MAX_HOPS)
          throw new OutboundError('too_many_redirects', `more than ${MAX_HOPS} redirects`, performance.now() - started);
        const keepBody = response.status === 307 || response.status === 308;
        current = {
          ...current,
          url: new URL(location, current.url).toString(),
          ...(keepBody ? {} : { method: 'GET', body: undefined }),
        };
      }
    } catch (error) {
      const failure =
        error instanceof OutboundError
          ? error
          : new OutboundError('network', (error as Error).message, performance.now() - started);
      this.record(purpose, failure.kind, started);
      throw failure;
    }
  }

  /** Closes the kept-alive connections (the process is stopping). */
  close(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }

  private agentFor(url: URL, address: string): http.Agent {
    const key = `${url.protocol}//${address}:${url.port}`;
    let agent = this.agents.get(key);
    if (agent) this.agents.delete(key);
    else {
      const options = { keepAlive: true, maxFreeSockets: MAX_IDLE_SOCKETS_PER_HOST };
      agent = url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
      if (this.agents.size >= MAX_AGENTS) {
        const [oldest, stale] = this.agents.entries().next().value as [string, http.Agent];
        stale.destroy();
        this.agents.delete(oldest);
      }
    }
    this.agents.set(key, agent);
    return agent;
  }

  private record(purpose: string, outcome: string, started: number): void {
    this.requests?.inc({ purpose, outcome });
    this.duration?.observe({ purpose }, (performance.now() - started) / 1000);
  }

  private async once(request: OutboundRequest, deadline: number, started: number): Promise<OutboundResponse> {
    const elapsed = () => performance.now() - started;
    const timeout = () =>
      new OutboundError(
        'timeout',
        `no complete answer within ${request.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms`,
        elapsed(),
      );
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(timeout()), Math.max(0, deadline - performance.now()));
    });
    try {
      const target = await Promise.race([this.check(request.url), expired]);
      try {
        return await Promise.race([this.send(request, target, started), expired]);
      } catch (error) {
        // A kept-alive connection the receiver closed as we reused it: nothing reached it, so send once more.
        if (!(error instanceof StaleConnectionError)) throw error;
        return await Promise.race([this.send(request, target, started), expired]);
      }
    } finally {
      clearTimeout(timer);
    }
  }

  private send(request: OutboundRequest, target: ResolvedTarget, started: number): Promise<OutboundResponse> {
    const { url, address, family } = target;
    const maxBytes = request.maxResponseBytes ?? DEFAULT_MAX_BYTES;
    // The socket gets the checked address and nothing else (Node may ask for one address or for a list).
    const pinned: LookupFunction = (_hostname, options, callback) => {
      if ((options as { all?: boolean }).all)
        (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
          { address, family },
        ]);
      else callback(null, address, family);
    };
    const client = url.protocol === 'https:' ? https : http;
    const body =
      request.body === undefined ? undefined : Buffer.isBuffer(request.body) ? request.body : Buffer.from(request.body);
    return new Promise<OutboundResponse>((resolve, reject) => {
      // The first failure wins: destroying the request also makes the socket report a reset.
      let failure: Error | undefined;
      let responded = false;
      const fail = (error: Error) => {
        failure ??=
          error instanceof OutboundError || error instanceof StaleConnectionError
            ? error
            : new OutboundError('network', error.message, performance.now() - started);
        reject(failure);
      };
      const req = client.request(
        {
          method: request.method ?? 'GET',
          protocol: url.protocol,
          hostname: bareHost(url.hostname),
          port: url.port || undefined,
          path: `${url.pathname}${url.search}`,
          headers: { ...(body ? { 'content-length': String(body.length) } : {}), ...request.headers },
          lookup: pinned,
          agent: this.agentFor(url, address),
          // SNI must name the host, never the IP we pinned (an IP literal host gets no SNI, as TLS requires).
          ...(url.protocol === 'https:' && !isIP(bareHost(url.hostname)) ? { servername: bareHost(url.hostname) } : {}),
          ...(url.protocol === 'https:' && this.ca ? { ca: this.ca } : {}),
        },
        (res) => {
          responded = true;
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxBytes) {
              fail(
                new OutboundError('too_large', `response larger than ${maxBytes} bytes`, performance.now() - started),
              );
              req.destroy();
              return;
            }
            chunks.push(chunk);
          });
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks),
              address,
              durationMs: performance.now() - started,
            }),
          );
          res.on('error', fail);
        },
      );
      req.on('error', (error: NodeJS.ErrnoException) => {
        if (req.reusedSocket && !responded && error.code === 'ECONNRESET')
          fail(new StaleConnectionError(error.message));
        else fail(error);
      });
      // A deadline that fires elsewhere must not leave the socket open: close it when the race is lost.
      const deadline = setTimeout(
        () => req.destroy(),
        Math.max(0, (request.timeoutMs ?? DEFAULT_TIMEOUT_MS) - (performance.now() - started)) + 5,
      );
      req.on('close', () => clearTimeout(deadline));
      req.end(body);
    });
  }
}
