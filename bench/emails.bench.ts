// Email campaign figures (issue 10): an individual campaign to N contacts (default 20,000) through a loopback SMTP
// sink, end to end — from the POST /emails call to the sink's last `250 OK` — in messages per second (target
// ≥ 500/s). The API process runs no workers; one worker process (`gable serve` with WORKERS_IN_PROCESS=true)
// executes the campaign and sends. The sink (lib/smtp-sink.ts) only counts: the figure is the server's, not the sink's.
import type { Deps } from '../src/platform/deps.js';
import { EMPTY_CONTACT } from '../src/modules/contacts/contacts.input.js';
import { importContacts } from '../src/modules/contacts/contacts.service.js';
import type { FoundationFixture } from './foundation.bench.js';
import { startProcess } from './lib/processes.js';
import { startSmtpSink } from './lib/smtp-sink.js';

export async function benchEmails(
  deps: Deps,
  apiUrl: string,
  env: Record<string, string>,
  fixture: FoundationFixture,
  options: { contacts: number; workerPort: number },
): Promise<{ notes: string[] }> {
  const brand = (
    await deps.db.selectFrom('memberships').select('brand').where('user', '=', fixture.userId).executeTakeFirstOrThrow()
  ).brand;
  const seeded = performance.now();
  await importContacts(
    deps,
    brand,
    Array.from({ length: options.contacts }, (_, i) => ({
      ...EMPTY_CONTACT,
      first_name: `Reader${i}`,
      emails: [`reader${i}@mail.example`],
      tags: ['newsletter'],
    })),
  );
  const notes = [
    `emails: ${options.contacts} contacts written in ${((performance.now() - seeded) / 1000).toFixed(1)} s`,
  ];
  const sink = await startSmtpSink();
  const worker = await startProcess(
    ['bin/gable.js', 'serve'],
    { ...env, SMTP_URL: sink.url, WORKERS_IN_PROCESS: 'true' },
    options.workerPort,
  );
  try {
    const started = performance.now();
    const res = await fetch(`${apiUrl}/emails`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${fixture.accessToken}`,
        'content-type': 'application/json',
        'x-rechat-brand': brand,
      },
      body: JSON.stringify({
        subject: 'Market update for {{ contact.first_name }}',
        html: '<p>Hello {{ contact.first_name }}, <a href="https://example.com/listings">new listings</a>.</p>',
        individual: true,
        to: [{ recipient_type: 'Tag', tag: 'newsletter' }],
      }),
    });
    if (!res.ok) throw new Error(`POST /emails answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    const campaign = ((await res.json()) as { data: { id: string } }).data.id;
    const deadline = Date.now() + Math.max(120_000, options.contacts * 20);
    // Where the time goes: executing the campaign (recipients resolved, messages rendered and queued) vs sending.
    let executedAt: number | null = null;
    while (sink.accepted() < options.contacts) {
      if (Date.now() > deadline) throw new Error(`only ${sink.accepted()} of ${options.contacts} messages arrived`);
      await new Promise((resolve) => setTimeout(resolve, 20));
      if (
        executedAt === null &&
        (
          await deps.db
            .selectFrom('email_campaigns')
            .select('executed_at')
            .where('id', '=', campaign)
            .executeTakeFirst()
        )?.executed_at
      ) {
        executedAt = performance.now();
      }
    }
    const seconds = (performance.now() - started) / 1000;
    if (executedAt !== null)
      notes.push(
        `emails: campaign executed (messages rendered and queued) after ${((executedAt - started) / 1000).toFixed(1)} s; ${sink.accepted()} accepted by the sink after ${seconds.toFixed(1)} s`,
      );
    notes.push(
      `emails: individual campaign to ${options.contacts} contacts, POST /emails to the sink's last 250 OK: ${seconds.toFixed(1)} s = ${Math.round(options.contacts / seconds)} messages/s (target ≥ 500/s; 1 worker process)`,
    );
  } finally {
    await worker.stop();
    await sink.close();
  }
  return { notes };
}
