// What every service, route and job handler receives: the outside world, as one value (decisions: nothing reads
// globals). Only the type lives here, below the feature modules, so that importing it closes no loop; the
// composition root (src/deps.ts) builds it.
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { DB } from '../db/types.js';
import type { JobQueue } from '../jobs/queue.js';
import type { Clock } from '../lib/clock.js';
import type { SecretBox } from '../lib/crypto.js';
import type { OutboundHttp } from '../lib/outbound.js';
import type { MailTransport } from '../mail/transport.js';
import type { MailHooks } from '../mail/hooks.js';
import type { FileStore } from '../files/store.js';
import type { FileSigner } from '../files/signing.js';
import type { Renderer } from '../render/renderer.js';
import type { Metrics } from './metrics.js';
import type { ModuleHooks } from './module-hooks.js';
import type { Lifecycle } from './lifecycle.js';

export interface Deps {
  readonly config: Config;
  readonly database: Database;
  readonly db: Kysely<DB>;
  readonly clock: Clock;
  readonly queue: JobQueue;
  readonly secrets: SecretBox;
  readonly metrics: Metrics;
  /** The one outbound HTTP client (SSRF guard, timeouts, size cap, metrics). */
  readonly outbound: OutboundHttp;
  /** The mail transport; features reach it only through src/mail (queueMessages). */
  readonly mail: MailTransport;
  /** What the mail ledger asks of the modules (mail/hooks.ts), filled in by the composition. */
  readonly mailHooks: MailHooks;
  /** What a module asks of a module above it (platform/module-hooks.ts), filled in by the composition. */
  readonly moduleHooks: ModuleHooks;
  readonly log: FastifyBaseLogger;
  /** Stored files (docs/files.md): DATA_DIR/files, or the S3-compatible store of S3_URL. */
  readonly files: FileStore;
  readonly fileSigner: FileSigner;
  /** Chromium renderer of template instances; null when no browser is configured (docs/templates.md). */
  readonly renderer: Renderer | null;
  /** Whether the process is shutting down (platform/lifecycle.ts). */
  readonly lifecycle: Lifecycle;
}
