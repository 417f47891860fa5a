// What a module asks of a module above it. Contacts sit below triggers (a trigger is about a contact, and triggers
// read contacts), and campaigns below triggers (a trigger schedules a campaign); yet a contact's write re-plans its
// triggers, a contact record may embed its triggers, and a campaign that is a trigger's template cannot be deleted.
// Those three questions go up through these hooks, which the composition fills in (deps.ts), so the lower module
// imports nothing of the higher one and the modules' faces import each other without a cycle (issue 29).
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/types.js';
import type { JobQueue } from '../jobs/queue.js';
import type { Clock } from '../lib/clock.js';

export interface ModuleHooks {
  /** Re-plans the pending triggers of these contacts, whose dates changed, in the change's transaction. */
  replanContactTriggers(
    trx: Transaction<DB>,
    deps: { readonly clock: Clock; readonly queue: JobQueue },
    contacts: readonly string[],
  ): Promise<void>;
  /**
   * The `contact.triggers` association: each contact's current triggers as the API presents them (with their own
   * associations, e.g. `trigger.campaign`), by contact id. Typed by the contacts module, which names the record.
   */
  triggersOfContacts(db: Kysely<DB>, contacts: string[], associations: Set<string>): Promise<Map<string, unknown[]>>;
  /** Whether a live trigger uses this campaign as its template (then the campaign cannot be deleted). */
  campaignInUse(db: Kysely<DB>, campaign: string): Promise<boolean>;
}
