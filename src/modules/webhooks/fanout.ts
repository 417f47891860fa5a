// From the domain-event outbox to deliveries (docs/webhooks.md). One fan-out runs at a time (it locks the
// position row; other workers skip), reads the next events after its position, writes one delivery per
// (event, live webhook of the event's brand with that topic — `Deals` also of the brand's ancestors) and a
// job per delivery, and moves the position, all in one transaction: a crash repeats nothing and loses nothing.
import type { Transaction } from 'kysely';
import type { Deps } from '../../platform/deps.js';
import type { DB } from '../../db/types.js';
import { readEvents, type StoredEvent } from '../../events/outbox.js';
import * as repo from './deliveries.repository.js';
import { BEHIND_PRIORITY, deliverTask } from './webhooks.tasks.js';

/** Contacts payloads carry at most this many contacts (`{contacts: [...]}`). */
export const CONTACTS_PER_DELIVERY = 50;
/** Topics whose events also reach the webhooks of the event brand's ancestors. */
const UPWARD_TOPICS = new Set(['Deals']);

/** One body to send: a single event, or a chunk of Contacts events of one transaction. */
interface Message {
  events: StoredEvent[];
  topic: string;
  event: string;
  brand: string;
  body: string;
}

export interface FanOutStep {
  /** Events consumed (0: nothing new, or another worker holds the position). */
  events: number;
  deliveries: number;
  /**
   * Committed events wait after the position but cannot be read yet: an older transaction still runs, and
   * until it ends they are not final (see readEvents). Worth another look in a few milliseconds.
   */
  heldBack: boolean;
}

/** Fans out the next `chunkRows` events at most (see the file's head; the size is the fan-out task's). */
export async function fanOutStep(deps: Deps, chunkRows: number): Promise<FanOutStep> {
  return deps.db.transaction().execute(async (trx) => {
    const locked = await repo.lockPosition(trx);
    if (!locked) return { events: 0, deliveries: 0, heldBack: false };
    const events = await readEvents(trx, { after: locked.position, limit: chunkRows });
    if (events.length === 0)
      return { events: 0, deliveries: 0, heldBack: await repo.eventsAfter(trx, locked.position) };
    const deliveries = await writeDeliveries(deps, trx, toMessages(events));
    await repo.savePosition(trx, events[events.length - 1]!.position);
    return { events: events.length, deliveries, heldBack: false };
  });
}

/** Fans out the next batch; returns how many events it consumed (0: nothing new, or another worker is at it). */
export async function fanOutOnce(deps: Deps, chunkRows: number): Promise<number> {
  return (await fanOutStep(deps, chunkRows)).events;
}

/** Groups consecutive Contacts events of one transaction, brand and event name into chunks of ≤ 50. */
export function toMessages(events: readonly StoredEvent[]): Message[] {
  const messages: Message[] = [];
  let open: StoredEvent[] = [];
  const flush = () => {
    if (open.length > 0) messages.push(message(open));
    open = [];
  };
  for (const event of events) {
    if (event.topic !== 'Contacts') {
      flush();
      messages.push(message([event]));
      continue;
    }
    const head = open[0];
    if (
      head &&
      (head.position.tx !== event.position.tx ||
        head.brand !== event.brand ||
        head.event !== event.event ||
        open.length >= CONTACTS_PER_DELIVERY)
    )
      flush();
    open.push(event);
  }
  flush();
  return messages;
}

function message(events: StoredEvent[]): Message {
  const first = events[0]!;
  const payload = first.topic === 'Contacts' ? { contacts: events.map((e) => e.payload.contact) } : first.payload;
  const body = JSON.stringify({
    topic: first.topic,
    event: first.event,
    timestamp: first.created_at.getTime(),
    payload,
  });
  return { events, topic: first.topic, event: first.event, brand: first.brand, body };
}

/** Writes the deliveries and their jobs, each in one statement; returns how many. */
async function writeDeliveries(deps: Deps, trx: Transaction<DB>, messages: Message[]): Promise<number> {
  const brands = [...new Set(messages.map((m) => m.brand))];
  const upward = [...new Set(messages.filter((m) => UPWARD_TOPICS.has(m.topic)).map((m) => m.brand))];
  const ancestors = await repo.ancestorsOf(trx, upward);
  const reach = [...new Set([...brands, ...[...ancestors.values()].flat()])];
  const webhooks = await repo.liveWebhooks(trx, reach, [...new Set(messages.map((m) => m.topic))]);
  const now = deps.clock.now();
  const rows = messages.flatMap((m) => {
    const brandsReached = new Set([m.brand, ...(UPWARD_TOPICS.has(m.topic) ? (ancestors.get(m.brand) ?? []) : [])]);
    return webhooks
      .filter((w) => w.topic === m.topic && brandsReached.has(w.brand))
      .map((w) => ({
        webhook: w.id,
        event_id: m.events[0]!.id,
        topic: m.topic,
        event: m.event,
        body: m.body,
        next_attempt_at: now,
        created_at: now,
        updated_at: now,
      }));
  });
  const inserted = await repo.insertDeliveries(trx, rows);
  // A failing receiver's deliveries queue behind everyone else's (webhooks.tasks.ts BEHIND_PRIORITY).
  const failing = new Set(webhooks.filter((w) => w.failing_since !== null).map((w) => w.id));
  const job = ({ id }: { id: string }) => ({ delivery: id, attempt: 1 });
  await deps.queue.enqueueMany(trx, deliverTask, inserted.filter((d) => !failing.has(d.webhook)).map(job));
  await deps.queue.enqueueMany(trx, deliverTask, inserted.filter((d) => failing.has(d.webhook)).map(job), {
    priority: BEHIND_PRIORITY,
  });
  return inserted.length;
}
