// Composition root: everything a service needs from the outside world (the type `Deps`, platform/deps.ts), built
// once per process (or test). Services are plain functions/classes of Deps; nothing reads globals.
import type { FastifyBaseLogger } from 'fastify';
import type { PGlite } from '@electric-sql/pglite';
import { createLogger } from './platform/logger.js';
import type { Deps } from './platform/deps.js';
import type { Config } from './config.js';
import { openDatabase } from './db/database.js';
import { JobQueue } from './jobs/queue.js';
import { listen } from './db/listener.js';
import { DAEMONS, handlerOf, TASKS } from './registry.js';
import { systemClock, type Clock } from './lib/clock.js';
import { SecretBox } from './lib/crypto.js';
import { OutboundHttp } from './lib/outbound.js';
import { Metrics } from './platform/metrics.js';
import { slowStatementReporter } from './platform/slow-statement-log.js';
import { runAsWork } from './lib/work-context.js';
import { createMailTransport } from './mail/transport.js';
import { sendThroughMailbox } from './modules/extmail/send.js';
import { unsubscribeContactsIn } from './modules/contacts/contacts.service.js';
import { campaignInUse, replanTriggersOfContacts, triggersOfContacts } from './modules/triggers/index.js';
import { LocalDiskStore } from './files/store.js';
import { FileSigner } from './files/signing.js';
import { S3Store } from './files/s3-store.js';
import { join } from 'node:path';
import { Renderer } from './render/renderer.js';
import { fetchFontThrough } from './render/font-cache.js';
import { ownResponse, type DrawnFiles } from './render/own-files.js';
import { DEMO_LOGOS } from './modules/brands/demo-logos.routes.js';
import { DEMO_PHOTOS } from './modules/listings/demo-photos.js';
import { Lifecycle } from './platform/lifecycle.js';

/** The SVGs this server draws, by the paths their routes serve them at: what a rendered page may load of them. */
export const DRAWN_FILES: DrawnFiles = new Map([
  ...Object.entries(DEMO_LOGOS).map(([name, svg]) => [`/demo/logos/${name}.svg`, svg] as const),
  ...Object.entries(DEMO_PHOTOS).map(([name, svg]) => [`/demo/photos/${name}.svg`, svg] as const),
]);

export interface DepsOptions {
  clock?: Clock;
  log?: FastifyBaseLogger;
  /** Consume jobs in this process (serve with WORKERS_IN_PROCESS, or `gable worker`). */
  workers?: boolean;
  /** Tests pass an in-memory PGlite loaded from the migrated template. */
  pglite?: PGlite;
}

export async function createDeps(config: Config, options: DepsOptions = {}): Promise<Deps> {
  const log = options.log ?? createLogger(config);
  const metrics = new Metrics();
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
    slowStatements: { thresholdMs: config.slowQueryMs, report: slowStatementReporter(log, metrics) },
    ...(options.pglite ? { pglite: options.pglite } : {}),
  });
  const queue = new JobQueue((query) => database.query(query), log, {
    workers: options.workers ?? false,
    embedded: database.embedded,
    listen: (channel, onPayload, onReconnected) =>
      listen({ database, databaseUrl: config.databaseUrl, log, channel, onPayload, onReconnected }),
  });
  // The renderer answers a page's requests for this server's files in-process, through the deps it belongs to.
  const holder: { deps?: Deps } = {};
  const renderer = config.chromiumPath
    ? new Renderer({
        executablePath: config.chromiumPath,
        timeoutMs: config.renderTimeoutMs,
        ownOrigin: config.baseUrl,
        fetchOwn: (path) => ownResponse(holder.deps as Deps, path, DRAWN_FILES),
        fetchFont: (url, headers) => fetchFontThrough((holder.deps as Deps).outbound)(url, headers),
      })
    : null;
  const deps: Deps = {
    config,
    database,
    db: database.db,
    clock: options.clock ?? systemClock,
    queue,
    secrets: new SecretBox(config.secretKey, config.previousSecretKeys),
    metrics,
    outbound: new OutboundHttp({ allowedNetworks: config.webhookAllowedNetworks, registry: metrics.registry }),
    mail: createMailTransport(config),
    mailHooks: { sendThroughMailbox, unsubscribeContacts: unsubscribeContactsIn },
    moduleHooks: { replanContactTriggers: replanTriggersOfContacts, triggersOfContacts, campaignInUse },
    log,
    files: config.s3 ? new S3Store(config.s3) : new LocalDiskStore(join(config.dataDir, 'files')),
    fileSigner: new FileSigner(config.secretKey, config.previousSecretKeys),
    renderer,
    lifecycle: new Lifecycle(),
  };
  holder.deps = deps;
  return deps;
}

/** Starts the job queue (and its workers when the deps were built with `workers: true`). */
export async function startJobs(deps: Deps): Promise<void> {
  // Each job and daemon runs as work of its name: its slow statements say whose they were.
  await deps.queue.start(
    TASKS.map((entry) => entry.task),
    (task, payload, stopping) =>
      runAsWork({ kind: 'job', name: task.name }, () => handlerOf(task.name).run(deps, payload, stopping)),
    DAEMONS.map(
      (daemon) => (stopping: AbortSignal) =>
        runAsWork({ kind: 'job', name: daemon.name }, () => daemon.run(deps, stopping)),
    ),
  );
}

/** `drainMs`: how long running jobs may still take before they are released to another worker (queue.ts). */
export async function closeDeps(deps: Deps, drainMs?: number): Promise<void> {
  await deps.queue.stop(drainMs);
  deps.mail.close();
  deps.outbound.close();
  deps.files.close?.();
  await deps.renderer?.close();
  await deps.database.close();
}
