// The mixed load of the scale-out bench (bench/scale-out.bench.ts), all through the proxy: closed loops of token
// refreshes (each loop its own rotating chain), contact writes (each a Contacts event, hence a webhook delivery),
// listing ingest of new listings (events matched by an Instant saved search, hence alert emails), bearer reads,
// and an individual email campaign every few seconds. Every answer is kept as a sample (when, what, status,
// latency), so the bench can cut the run into segments afterwards.
import http from 'node:http';
import { syntheticRecords } from './listings-ingest.bench.js';
import { exchange, type LoopRequest, type LoadResult } from './lib/load.js';

export interface Sample {
  at: number;
  kind: string;
  status: number;
  ms: number;
}

export interface MixedLoadFixture {
  accessToken: string;
  clientId: string;
  clientSecret: string;
  /** One refresh token per chain; the rest are spares for a chain whose token stopped working. */
  refreshTokens: string[];
  feedToken: string;
  brand: string;
  campaignTag: string;
}

export const REFRESH_CHAINS = 4;
const CONTACT_LOOPS = 2;
const READ_LOOPS = 2;
const CONTACTS_PER_WRITE = 5;
const LISTINGS_PER_INGEST = 20;
const CAMPAIGN_EVERY_MS = 10_000;

export interface MixedLoad {
  readonly samples: Sample[];
  /** Requests the proxy never answered (the client's connection failed): errors too. */
  readonly connectionErrors: () => number;
  stop(): Promise<void>;
}

export function startMixedLoad(proxyUrl: string, fixture: MixedLoadFixture): MixedLoad {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const samples: Sample[] = [];
  const spares = fixture.refreshTokens.slice(REFRESH_CHAINS);
  let stopped = false;
  let connectionErrors = 0;
  let contactSerial = 0;
  let ingestSerial = 0;

  const call = async (kind: string, request: LoopRequest, readBody = false) => {
    const t0 = performance.now();
    try {
      const answer = await exchange(agent, proxyUrl, request, readBody);
      samples.push({ at: performance.now(), kind, status: answer.status, ms: performance.now() - t0 });
      return answer;
    } catch {
      connectionErrors++;
      samples.push({ at: performance.now(), kind, status: 0, ms: performance.now() - t0 });
      return { status: 0, body: '' };
    }
  };
  const loop = async (body: () => Promise<void>) => {
    while (!stopped) await body();
  };
  const bearer = { authorization: `Bearer ${fixture.accessToken}` };

  const refreshChain = (first: string) => {
    let token = first;
    let retried = false;
    return loop(async () => {
      const answer = await call(
        'refresh',
        {
          method: 'POST',
          path: '/oauth2/token',
          body: {
            grant_type: 'refresh_token',
            refresh_token: token,
            client_id: fixture.clientId,
            client_secret: fixture.clientSecret,
          },
        },
        true,
      );
      if (answer.status === 200) {
        token = (JSON.parse(answer.body) as { refresh_token: string }).refresh_token;
        retried = false;
      } else if (!retried) {
        // The answer was lost (as a client whose connection dropped): the same token once more, as the server's
        // reuse interval allows (docs/oauth.md); after that the chain takes a spare token.
        retried = true;
      } else {
        token = spares.pop() ?? token;
        retried = false;
      }
    });
  };

  const contactWrites = () =>
    loop(async () => {
      const contacts = Array.from({ length: CONTACTS_PER_WRITE }, () => {
        const n = contactSerial++;
        return { first_name: `Scale${n}`, last_name: 'Out', emails: [`scale-out-${n}@mail.example`] };
      });
      await call('contacts', { method: 'POST', path: '/contacts', headers: bearer, body: { contacts } });
    });

  // New listings in bodies of 20, generated a thousand at a time (each thousand under an MLS of its own, so every
  // record is new and records an event).
  let records: Record<string, unknown>[] = [];
  let mls = '';
  const ingest = () =>
    loop(async () => {
      if (records.length === 0) {
        mls = `SCALEOUT${ingestSerial++}`;
        records = syntheticRecords(1000, { mls, seed: 1000 + ingestSerial });
      }
      const body = records.splice(0, LISTINGS_PER_INGEST);
      await call('ingest', {
        method: 'POST',
        path: `/mls/${mls}/listings`,
        headers: { authorization: `Bearer ${fixture.feedToken}` },
        body,
      });
    });

  const reads = () =>
    loop(async () => void (await call('read', { method: 'GET', path: '/users/self', headers: bearer })));

  const sendCampaign = () =>
    call('campaign', {
      method: 'POST',
      path: '/emails',
      headers: { ...bearer, 'x-rechat-brand': fixture.brand },
      body: {
        subject: 'Scale-out update for {{ contact.first_name }}',
        html: '<p>Hello {{ contact.first_name }}, <a href="https://example.com/listings">new listings</a>.</p>',
        individual: true,
        to: [{ recipient_type: 'Tag', tag: fixture.campaignTag }],
      },
    });
  const campaigns = setInterval(() => void sendCampaign(), CAMPAIGN_EVERY_MS);
  void sendCampaign();

  const running = [
    ...fixture.refreshTokens.slice(0, REFRESH_CHAINS).map(refreshChain),
    ...Array.from({ length: CONTACT_LOOPS }, contactWrites),
    ingest(),
    ...Array.from({ length: READ_LOOPS }, reads),
  ];
  return {
    samples,
    connectionErrors: () => connectionErrors,
    async stop() {
      stopped = true;
      clearInterval(campaigns);
      await Promise.all(running);
      agent.destroy();
    },
  };
}

/** The samples answered in [from, to) as one row of the bench table (non-2xx and unanswered are errors). */
export function summarize(name: string, samples: Sample[], from: number, to: number): LoadResult {
  const inside = samples.filter((s) => s.at >= from && s.at < to);
  const latencies = inside.map((s) => s.ms).sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? NaN;
  return {
    name,
    requests: inside.length,
    errors: inside.filter((s) => s.status < 200 || s.status >= 300).length,
    rps: inside.length / ((to - from) / 1000),
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
  };
}

/** Answers in [from, to) by kind, with their statuses: where errors came from. */
export function byKind(samples: Sample[], from: number, to: number): string {
  const kinds = new Map<string, Map<number, number>>();
  for (const s of samples) {
    if (s.at < from || s.at >= to) continue;
    const statuses = kinds.get(s.kind) ?? new Map<number, number>();
    statuses.set(s.status, (statuses.get(s.status) ?? 0) + 1);
    kinds.set(s.kind, statuses);
  }
  return [...kinds]
    .map(([kind, statuses]) => `${kind} ${[...statuses].map(([status, n]) => `${n}×${status}`).join(' ')}`)
    .join('; ');
}
