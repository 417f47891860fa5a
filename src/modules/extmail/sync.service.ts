// Syncing a linked mailbox (docs/extmail.md "Sync"): `POST …/:id/sync` and the periodic job queue a run; a run
// takes a lease on the credential (one run at a time per credential, a crashed run's lease expires), pulls the
// contacts delta page by page (contacts-import.ts) and the mail-folder delta, and records its outcome in the
// credential's `jobs`. Throttling reschedules the run after Retry-After; a refused grant marks the credential
// revoked and tells the user; other failures are recorded and retried by the queue.
import type { Transaction } from 'kysely';
import type { Deps } from '../../platform/deps.js';
import type { DB } from '../../db/types.js';
import { errors } from '../../errors.js';
import type { Actor } from '../auth/index.js';
import { notify } from '../notifications/index.js';
import { applyContactsPage } from './contacts-import.js';
import * as repo from './extmail.repository.js';
import type { CredentialRow } from './extmail.repository.js';
import { presentCredential, type CredentialRecord } from './extmail.presenter.js';
import { ownCredential, providerOf } from './extmail.service.js';
import { GraphSession } from './graph-session.js';
import { ProviderError } from './provider.js';
import { syncTask } from './extmail.tasks.js';

/** A run not finished after this long is taken for dead: its lease may be taken over. */
export const LEASE_SECONDS = 15 * 60;

/** Marks the credential queued and enqueues its run in `trx` (nothing new when a run is already queued or running). */
export async function queueSyncIn(
  trx: Transaction<DB>,
  deps: Deps,
  row: CredentialRow,
  startAfter?: Date,
): Promise<CredentialRow> {
  const now = deps.clock.now();
  const leaseValid =
    row.sync_started_at !== null && now.getTime() - row.sync_started_at.getTime() < LEASE_SECONDS * 1000;
  if (!startAfter && (row.sync_status === 'queued' || (row.sync_status === 'running' && leaseValid))) return row;
  const queued = await repo.markSyncQueued(trx, row.id, now);
  await deps.queue.enqueue(trx, syncTask, { credential: row.id }, startAfter ? { startAfter } : {});
  return queued;
}

export async function requestSync(deps: Deps, actor: Actor, id: string): Promise<CredentialRecord> {
  const gone = await repo.findCredentialOwner(deps.db, id);
  if (gone && gone.user === actor.userId && gone.deleted_at !== null)
    throw errors.conflict('This mailbox was unlinked: link it again to sync it');
  return deps.db.transaction().execute(async (trx) => {
    const row = await ownCredential({ ...deps, db: trx }, actor, id, { forUpdate: true });
    if (row.revoked) throw errors.conflict('The mail provider refused this link: link the mailbox again to sync it');
    return presentCredential(await queueSyncIn(trx, deps, row));
  });
}

/** One run of the sync of a credential (the job handler). */
export async function runSync(deps: Deps, credentialId: string, stopping: AbortSignal): Promise<void> {
  const now = deps.clock.now();
  const claimed = await repo.claimSyncLease(deps.db, credentialId, now, new Date(now.getTime() - LEASE_SECONDS * 1000));
  if (!claimed) return; // deleted, revoked, or another run holds the lease
  const provider = providerOf(deps);
  const session = new GraphSession(deps, provider, claimed);
  try {
    const scope = claimed.scope ?? [];
    let finished = true;
    if (scope.includes('Contacts.Read')) finished = await syncContacts(deps, session, claimed, stopping);
    if (finished && scope.includes('Mail.Read')) await syncMailFolders(deps, session, claimed);
    if (!finished) {
      // Stopped by a shutdown between pages: the cursor is stored, the next run goes on from it.
      await deps.db.transaction().execute(async (trx) => queueSyncIn(trx, deps, { ...claimed, sync_status: 'failed' }));
      return;
    }
    await finish(deps, credentialId, { sync_status: 'succeeded', sync_error: null, last_synced_at: deps.clock.now() });
  } catch (error) {
    if (!(error instanceof ProviderError)) {
      await finish(deps, credentialId, { sync_status: 'failed', sync_error: 'internal error' });
      throw error;
    }
    if (error.kind === 'invalid_grant') return markRevoked(deps, claimed);
    if (error.kind === 'throttled') {
      const retryAt = new Date(deps.clock.now().getTime() + (error.retryAfterSeconds ?? 30) * 1000);
      await deps.db.transaction().execute(async (trx) => {
        await queueSyncIn(trx, deps, { ...claimed, sync_status: 'failed' }, retryAt);
        await repo.setSyncError(
          trx,
          credentialId,
          `throttled by the provider: retrying after ${retryAt.toISOString()}`,
        );
      });
      return;
    }
    await finish(deps, credentialId, {
      sync_status: 'failed',
      sync_error: `${error.kind}: ${error.message}`.slice(0, 500),
    });
    throw error; // the queue retries it (extmail.tasks.ts)
  }
}

async function finish(
  deps: Deps,
  id: string,
  fields: { sync_status: 'succeeded' | 'failed'; sync_error: string | null; last_synced_at?: Date },
): Promise<void> {
  await repo.finishSync(deps.db, id, fields, deps.clock.now());
}

/** Pages until the delta link (true) or until the process stops (false, cursor kept). */
async function syncContacts(
  deps: Deps,
  session: GraphSession,
  credential: CredentialRow,
  stopping: AbortSignal,
): Promise<boolean> {
  const provider = providerOf(deps);
  let link = credential.contacts_sync_cursor ?? credential.contacts_sync_token;
  for (;;) {
    const page = await session.run((token) => provider.contactsDelta(token, link));
    const applied = await applyContactsPage(deps, credential.id, page);
    if (!applied || page.deltaLink) return true;
    link = page.nextLink;
    if (stopping.aborted) return false;
  }
}

async function syncMailFolders(deps: Deps, session: GraphSession, credential: CredentialRow): Promise<void> {
  const provider = providerOf(deps);
  let link = credential.cfolders_sync_token;
  for (let pages = 0; pages < 100; pages++) {
    const page = await session.run((token) => provider.mailFoldersDelta(token, link));
    if (page.deltaLink) {
      await repo.storeMailFoldersToken(deps.db, credential.id, page.deltaLink);
      return;
    }
    link = page.nextLink;
  }
}

/** The provider refused the stored grant: `revoked`, and the user is told in the app to link the mailbox again. */
export async function markRevoked(deps: Deps, credential: CredentialRow): Promise<void> {
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    if (!(await repo.markCredentialRevoked(trx, credential.id, now))) return;
    await notify(trx, deps, {
      recipients: [credential.user],
      action: 'Revoked',
      notification_type: 'ExtmailCredentialRevoked',
      message: `Your mailbox ${credential.email} is no longer linked: link it again to keep syncing contacts and sending from it.`,
      title: 'Mailbox disconnected',
      data: { extmail_credential: credential.id, email: credential.email },
    });
  });
}

/** Credentials whose last sync is older than the interval (or whose queued/running run was lost): queue them. */
export async function queueDueSyncs(deps: Deps, limit = 200): Promise<number> {
  const now = deps.clock.now();
  const due = new Date(now.getTime() - deps.config.extmailSyncMinutes * 60_000);
  const lost = new Date(now.getTime() - 2 * LEASE_SECONDS * 1000);
  const rows = await repo.findDueSyncs(deps.db, due, lost, limit);
  let queued = 0;
  for (const { id } of rows) {
    await deps.db.transaction().execute(async (trx) => {
      const row = await repo.findCredential(trx, id, { forUpdate: true });
      if (!row || row.revoked) return;
      const stale = {
        ...row,
        sync_status:
          row.sync_status === 'queued' || row.sync_status === 'running' ? ('failed' as const) : row.sync_status,
      };
      await queueSyncIn(trx, deps, stale);
      queued++;
    });
  }
  return queued;
}
