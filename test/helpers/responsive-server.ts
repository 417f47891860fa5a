// The responsiveness scenario of issue 35 (test/responsiveness.alone.test.ts at demo scale, the bench at 10×): a
// real `gable serve` with its job workers in its own process, `contacts` contacts all born today, and a client that
// polls /health and /users/self every 100 ms from another thread while, as the brokerage did, two brand
// triggers (one due, swept by the server's own pass on the real clock), a contact's own recurring birthday trigger,
// a campaign to a tag of everyone now and another in 5 s email every contact over a loopback relay: three emails
// each (the contact with a trigger of its own gets that one instead of the brand's). Meanwhile a second agent's
// saved searches match a feed's new listings, a listing per contact, and the agent's move to another time zone
// re-plans a trigger per contact (responsive-agent.ts). Answers what the client saw before and during the jobs,
// what the relay received, the agent's notifications and re-planned triggers, the server's CPU while it then
// idles, and the statements of 100 ms or more the server logged, by route or job.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { buildApp } from '../../src/app.js';
import { firstStartSteps } from '../../src/bootstrap.js';
import { loadConfig } from '../../src/config.js';
import { completeStep } from '../../src/db/first-start.repository.js';
import { migrateToLatest } from '../../src/db/migrator.js';
import { closeDeps, createDeps, startJobs } from '../../src/deps.js';
import { wallClock } from '../../src/lib/zoned-time.js';
import { startSmtpSink } from '../fakes/smtp.js';
import { TEST_SECRET_KEY } from './app.js';
import { exited } from './crash.js';
import { freePort } from './ports.js';
import { processCpuMs } from './process-cpu.js';
import { addMembership, bearer, createBrand, createUser, tokenFor } from './factories.js';
import { latencies, startPoller, type Latencies, type Probe } from './responsiveness.js';
import {
  agentNotifications,
  AGENT_TRIGGER_TIME,
  farAnniversary,
  prepareAgent,
  runAgentWork,
  type AgentWork,
  type AgentWorld,
} from './responsive-agent.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Statements this slow or slower are counted (the server's SLOW_QUERY_MS for the run). */
export const SLOW_STATEMENT_MS = 100;

export interface ScenarioOptions {
  contacts: number;
  /** The server's data directory; with `databaseUrl`, the PostgreSQL database instead (created, empty or migrated). */
  dataDir: string;
  databaseUrl?: string | null;
  /** How long the emails may take to arrive (default 150 s). */
  deadlineSeconds?: number;
}

export interface ScenarioResult {
  database: 'embedded' | 'PostgreSQL';
  contacts: number;
  /** Probes in the second before the jobs, and from their start until the last email arrived. */
  idle: Latencies;
  busy: Latencies;
  /** What the relay received, by recipient address: the subjects. */
  received: Map<string, string[]>;
  emails: number;
  /** Emails every contact should get: `expectedSubjects(i)` for `client${i}@example.com`, sorted. */
  expectedEmails: number;
  /** CPU seconds the server spent in 10 s of idling after the emails, its triggers still enabled. */
  idleCpuSeconds: number;
  /** The second agent: its time-zone change, the notifications of its searches' matches, its re-planned triggers. */
  agent: AgentWork & { notifications: number; triggers: number; replanned: number };
  /** Statements of SLOW_STATEMENT_MS or more, by `route NAME` / `job NAME`: how many, the longest, and their texts. */
  slowStatements: Record<string, SlowStatements>;
}

export interface SlowStatements {
  count: number;
  maxMs: number;
  /** The distinct SQL texts (cut at 200 characters). */
  texts: string[];
}

/** The subjects `client${i}@example.com` should receive, sorted: client 0 has a birthday trigger of its own. */
export function expectedSubjects(i: number): string[] {
  return [
    i === 0 ? 'Your own birthday note, Client0' : `Happy birthday, Client${i}!`,
    'Market update',
    'Open house Saturday',
  ].sort();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pad = (n: number) => String(n).padStart(2, '0');

/** A zone whose local time is far from midnight now, so "today" stays today for the whole run. */
function zoneAwayFromMidnight(): string {
  return ['UTC', 'Asia/Tokyo', 'America/Los_Angeles'].find((zone) => {
    const hour = wallClock(new Date(), zone).hour;
    return hour >= 2 && hour <= 21;
  })!;
}

async function stop(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  server.kill('SIGTERM');
  // A server stuck in a loop does not get to its SIGTERM handler.
  if ((await Promise.race([exited(server).then(() => true), sleep(15_000).then(() => false)])) === false) {
    server.kill('SIGKILL');
    await exited(server);
  }
}

export async function runResponsivenessScenario(options: ScenarioOptions): Promise<ScenarioResult> {
  const sink = await startSmtpSink();
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    SECRET_KEY: TEST_SECRET_KEY,
    LOG_LEVEL: 'warn',
    SLOW_QUERY_MS: String(SLOW_STATEMENT_MS),
    DATA_DIR: options.dataDir,
    SMTP_URL: sink.url,
    PORT: String(port),
    HOST: '127.0.0.1',
    // Set: a test runner's environment has a BASE_URL of its own ('/').
    BASE_URL: baseUrl,
    WORKERS_IN_PROCESS: 'true',
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
  };
  const zone = zoneAwayFromMidnight();
  let server: ChildProcess | undefined;
  try {
    // The world is written before the server starts (embedded, one process at a time holds the data directory).
    const deps = await createDeps(loadConfig(env));
    let token: string;
    let brand: string;
    const contactIds: string[] = [];
    let agent: AgentWorld;
    try {
      await migrateToLatest(deps.db);
      await startJobs(deps);
      const app = await buildApp(deps);
      brand = (await createBrand(deps)).id;
      const user = (await createUser(deps, { timezone: zone })).id;
      await addMembership(deps, user, brand, ['CRM', 'Marketing']);
      token = (await tokenFor(deps, user)).access_token;
      const today = wallClock(new Date(), zone);
      const birthday = `1980-${pad(today.month)}-${pad(today.day)}`;
      const home_anniversary = farAnniversary(today.month);
      for (let i = 0; i < options.contacts; i += 1000) {
        const contacts = Array.from({ length: Math.min(1000, options.contacts - i) }, (_, j) => ({
          first_name: `Client${i + j}`,
          email: `client${i + j}@example.com`,
          birthday,
          home_anniversary,
          tags: ['everyone'],
        }));
        const res = await app.inject({
          method: 'POST',
          url: '/contacts',
          headers: { ...bearer(token), 'x-rechat-brand': brand },
          payload: { contacts },
        });
        if (res.statusCode !== 200) throw new Error(`creating contacts: ${res.statusCode} ${res.body}`);
        contactIds.push(...(res.json() as { data: { id: string }[] }).data.map((contact) => contact.id));
      }
      agent = await prepareAgent(deps, app, { brand, zone, contacts: contactIds });
      // Nothing of the demo first start: the server starts at once.
      for (const step of firstStartSteps) await completeStep(deps.db, step.name, new Date());
      await app.close();
    } finally {
      await closeDeps(deps);
    }

    const slowStatements: Record<string, SlowStatements> = {};
    server = spawn(process.execPath, ['bin/gable.js', 'serve'], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    createInterface({ input: server.stdout! }).on('line', (line) => {
      try {
        const entry = JSON.parse(line) as {
          msg?: string;
          route?: string;
          job?: string;
          command?: string;
          duration_ms: number;
          sql: string;
          repeats_since_last_line?: number;
        };
        if (entry.msg !== 'slow database statement') return;
        const key = entry.route ? `route ${entry.route}` : entry.job ? `job ${entry.job}` : `command ${entry.command}`;
        const seen = (slowStatements[key] ??= { count: 0, maxMs: 0, texts: [] });
        seen.count += 1 + (entry.repeats_since_last_line ?? 0);
        seen.maxMs = Math.max(seen.maxMs, Math.round(entry.duration_ms));
        const text = entry.sql.slice(0, 200);
        if (!seen.texts.includes(text)) seen.texts.push(text);
      } catch {
        // not a log line
      }
    });
    for (let i = 0; ; i++) {
      if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
      if (i === 600) throw new Error('the server did not answer /health within 60 s');
      if (
        await fetch(`${baseUrl}/health`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await sleep(100);
    }

    const call = (method: string, path: string, body: unknown) =>
      fetch(`${baseUrl}${path}`, {
        method,
        headers: { ...bearer(token), 'x-rechat-brand': brand, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const poller = startPoller(baseUrl, token);
    let probes: Probe[];
    let jobsFrom = 0;
    let agentWork: AgentWork | undefined;
    let notifications = 0;
    try {
      await sleep(1000); // the idle figures
      jobsFrom = Date.now();
      // Fires 3 s from now in the sender's zone; the server's next pass (each minute) sweeps it.
      const fire = wallClock(new Date(Date.now() + 3000), zone);
      const put = async (eventType: string, body: Record<string, unknown>) => {
        const res = await call('PUT', `/brands/${brand}/triggers/${eventType}`, {
          wait_for: 0,
          html: '<p>All the best.</p>',
          ...body,
        });
        if (res.status !== 200) throw new Error(`PUT trigger ${eventType}: ${res.status} ${await res.text()}`);
      };
      await put('birthday', {
        time: fire.hour * 3600 + fire.minute * 60 + fire.second,
        subject: 'Happy birthday, {{ contact.first_name }}!',
      });
      // A second enabled trigger, as brands have (nobody here has a wedding date): a pass that re-read the clock
      // swept the two in turn and never found itself done.
      await put('wedding_anniversary', { time: 9 * 3600, subject: 'Happy anniversary!' });
      const post = async (path: string, body: Record<string, unknown>) => {
        const res = await call('POST', path, body);
        if (res.status !== 200) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
        return ((await res.json()) as { data: { id: string } }).data.id;
      };
      // The first contact's own recurring birthday trigger, at the same time (it overrides the brand's for them).
      const template = await post('/emails', {
        subject: 'Your own birthday note, {{ contact.first_name }}',
        html: '<p>From me.</p>',
        individual: true,
        due_at: Date.now() / 1000 + 365 * 86400,
        to: [{ recipient_type: 'Email', email: 'template@example.com' }],
      });
      await post('/triggers', {
        event_type: 'birthday',
        action: 'schedule_email',
        wait_for: 0,
        time: fire.hour * 3600 + fire.minute * 60 + fire.second,
        recurring: true,
        contact: contactIds[0],
        campaign: template,
      });
      const everyone = {
        html: '<p>Hello {{ contact.first_name }}</p>',
        individual: true,
        to: [{ recipient_type: 'Tag', tag: 'everyone' }],
      };
      await post('/emails', { ...everyone, subject: 'Market update' });
      await post('/emails', { ...everyone, subject: 'Open house Saturday', due_at: Math.ceil(Date.now() / 1000) + 5 });
      agentWork = await runAgentWork(baseUrl, agent, options.contacts);
      const deadline = Date.now() + (options.deadlineSeconds ?? 150) * 1000;
      const done = async () =>
        sink.received.length >= 3 * options.contacts &&
        (notifications = await agentNotifications(baseUrl, agent)) >= agentWork!.expectedNotifications;
      while (!(await done()) && Date.now() < deadline) await sleep(250);
    } finally {
      probes = await poller.stop();
    }
    await sleep(3000); // the last jobs settle
    const cpuBefore = await processCpuMs(server.pid!);
    await sleep(10_000);
    const idleCpuSeconds = ((await processCpuMs(server.pid!)) - cpuBefore) / 1000;

    await stop(server);
    const replanned = await countReplanned(env, agent.user, agent.newZone);
    const received = new Map<string, string[]>();
    for (const mail of sink.received)
      for (const to of mail.envelope.to) received.set(to, [...(received.get(to) ?? []), mail.parsed.subject ?? '']);
    return {
      database: options.databaseUrl ? 'PostgreSQL' : 'embedded',
      contacts: options.contacts,
      idle: latencies(probes.filter((p) => p.at < jobsFrom)),
      busy: latencies(probes.filter((p) => p.at >= jobsFrom)),
      received,
      emails: sink.received.length,
      expectedEmails: 3 * options.contacts,
      idleCpuSeconds,
      agent: { ...agentWork!, notifications, triggers: agent.triggers, replanned },
      slowStatements,
    };
  } finally {
    if (server) await stop(server);
    await sink.close();
  }
}

/** The agent's pending triggers planned at their local time in the new zone (read once the server has stopped). */
async function countReplanned(env: Record<string, string>, user: string, zone: string): Promise<number> {
  const deps = await createDeps(loadConfig(env));
  try {
    const row = await deps.db
      .selectFrom('triggers')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user', '=', user)
      .where('executed_at', 'is', null)
      .where('failed_at', 'is', null)
      .where(sql<boolean>`extract(epoch from (effective_at at time zone ${zone})::time) = ${AGENT_TRIGGER_TIME}`)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  } finally {
    await closeDeps(deps);
  }
}
