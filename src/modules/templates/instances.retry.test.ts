// A render that fails is recorded on the instance and retried once by the job queue, then left failed. The
// browser here is a program that is not one (/bin/false): launching it fails as a crashed Chromium would.
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { createBrand } from '../../../test/helpers/factories.js';
import { seedTemplateLibrary } from './templates.library.js';
import { marketer } from '../../../test/helpers/templates.js';
import { renderInstanceTask } from './instances.tasks.js';

const t = useTestApp({ workers: true, env: { CHROMIUM_PATH: '/bin/false' } });
let agent: Awaited<ReturnType<typeof marketer>>;
let postcard: string;

beforeAll(async () => {
  await seedTemplateLibrary(t.deps);
  agent = await marketer(t.deps, { brand: (await createBrand(t.deps)).id });
  postcard = (await t.app.inject({ url: '/templates?mediums[]=PostCard', headers: agent.headers })).json().data[0].id;
});

describe('a failing render', () => {
  it('is recorded on the instance, retried once by the queue, then left failed', { timeout: 60_000 }, async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: `/templates/${postcard}/instances`,
      headers: agent.headers,
      payload: { html: '<p>Just listed</p>' },
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().data.render_status).toBe('pending');
    const id = created.json().data.id as string;
    const job = async () =>
      (
        await sql<{
          state: string;
          retry_count: number;
        }>`select state, retry_count from pgboss.job where name = ${renderInstanceTask.name} and data->>'instance' = ${id}`.execute(
          t.deps.db,
        )
      ).rows[0];
    await expect.poll(async () => (await job())?.state, { timeout: 50_000, interval: 250 }).toBe('failed');
    expect((await job())?.retry_count).toBe(1);
    const instance = (await t.app.inject({ url: `/templates/instances/${id}`, headers: agent.bare })).json().data;
    expect(instance).toMatchObject({ render_status: 'failed', file: { mime: 'text/html' } });
    expect(instance.render_note).toMatch(/^Rendering failed: /);
  });
});
