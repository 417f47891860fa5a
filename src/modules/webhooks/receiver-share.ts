// One webhook's receiver never holds more than its share of a worker's attempt slots (issue 34 row 21). An attempt
// to a receiver that hangs holds its slot for the whole attempt timeout (15 s); a brand whose receiver hangs while
// it sends more events than there are slots would fill them all, and every other brand's first attempts would
// wait behind it. So an attempt over the share does not wait in a slot: it is deferred (deliveries.service.ts).
// The share is half the slots: a healthy receiver never comes near it (at 1,000 events/s and 5 ms an answer,
// about 5 attempts are in flight), and the other half always stays for everyone else.
//
// Counted per worker process, as the slots are: each process protects its own slots, and the receiver sees at
// most the share times the number of workers.
import { slotsOf } from '../../jobs/task.js';
import { deliverTask } from './webhooks.tasks.js';

/** Attempts in flight in this process, by webhook. */
const inFlight = new Map<string, number>();

/** The most attempts to one webhook that run at once in this process. */
export function receiverShare(embedded: boolean): number {
  return Math.max(1, Math.floor(slotsOf(deliverTask, embedded) / 2));
}

/** Takes one of the webhook's slots; false (nothing taken) when its share is in use. */
export function takeReceiverSlot(webhook: string, share: number): boolean {
  const used = inFlight.get(webhook) ?? 0;
  if (used >= share) return false;
  inFlight.set(webhook, used + 1);
  return true;
}

export function releaseReceiverSlot(webhook: string): void {
  const used = (inFlight.get(webhook) ?? 1) - 1;
  if (used > 0) inFlight.set(webhook, used);
  else inFlight.delete(webhook);
}
