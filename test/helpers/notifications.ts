// Test support for the notification tests: a user with a token, and notify() in its own transaction.
import type { Deps } from '../../src/platform/deps.js';
import { bearer, createUser, tokenFor } from './factories.js';
import { notify, type NotifyInput } from '../../src/modules/notifications/notify.js';

export async function feedUser(deps: Deps) {
  const user = await createUser(deps);
  return { id: user.id, headers: bearer(await tokenFor(deps, user.id)) };
}

export async function sendNotification(deps: Deps, recipients: string[], fields: Partial<NotifyInput> = {}) {
  return deps.db
    .transaction()
    .execute((trx) => notify(trx, deps, { recipients, action: 'Tested', message: 'Hello', ...fields }));
}

export interface SseEvent {
  event: string;
  id?: string;
  data: string;
  /** Comment lines (heartbeats). */
  comments: string[];
}

/**
 * A Server-Sent Events client over real HTTP (fetch): `next(predicate)` waits for the next event that matches,
 * skipping others. `close()` aborts the request.
 */
export async function openEventStream(url: string, headers: Record<string, string>) {
  const abort = new AbortController();
  const response = await fetch(url, { headers, signal: abort.signal });
  const queue: SseEvent[] = [];
  const waiters: (() => void)[] = [];
  let buffer = '';
  const pump = async () => {
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event: SseEvent = { event: 'message', data: '', comments: [] };
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) event.comments.push(line.slice(1).trim());
          else if (line.startsWith('event: ')) event.event = line.slice(7);
          else if (line.startsWith('id: ')) event.id = line.slice(4);
          else if (line.startsWith('data: ')) event.data += line.slice(6);
        }
        queue.push(event);
        waiters.splice(0).forEach((wake) => wake());
      }
    }
  };
  const pumping = response.ok ? pump().catch(() => undefined) : Promise.resolve();
  return {
    response,
    async next(predicate: (event: SseEvent) => boolean = (e) => e.comments.length === 0): Promise<SseEvent> {
      for (;;) {
        const index = queue.findIndex(predicate);
        if (index >= 0) return queue.splice(0, index + 1).at(-1)!;
        queue.length = 0;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    async close() {
      abort.abort();
      await pumping;
    },
  };
}
