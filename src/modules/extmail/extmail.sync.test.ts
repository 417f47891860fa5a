// Contacts sync of a linked mailbox against the loopback Microsoft fake: the delta over three syncs (create,
// update, remove) without duplicates, matching existing contacts by email, refresh-token rotation, revocation,
// throttling with Retry-After, garbage answers, resuming after a stop, and the periodic sync.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { queuedJobs, runQueuedJobs } from '../../../test/helpers/jobs.js';
import { fakeEnv, linkMailbox, mailboxOwner, type Owner, useFakeMicrosoft } from '../../../test/helpers/extmail.js';
import { runSync } from './sync.service.js';
import { syncDueTask } from './extmail.tasks.js';
import type { FakeContact } from '../../../test/fakes/microsoft.js';
import { handlerOf } from '../../registry.js';

const fake = useFakeMicrosoft();
const t = useTestApp({ env: fakeEnv(fake) });

let accounts = 0;
/** A linked mailbox of its own (a fresh remote account), with Contacts.Read and Mail.Read. */
async function linked(owner?: Owner) {
  const who = owner ?? (await mailboxOwner(t.deps));
  const id = `remote-sync-${++accounts}`;
  fake.account = { id, mail: `${id}@contoso.test`, displayName: `Mailbox ${accounts}` };
  const { row } = await linkMailbox(t, who, { body: ['Contacts.Read', 'Mail.Read'] });
  return { owner: who, account: id, credential: row.id };
}

const sync = (owner: Owner, id: string) =>
  t.app.inject({ method: 'POST', url: `/users/self/extmail/${id}/sync`, headers: owner.headers });
const runSyncJobs = (options: { dueBy?: Date; tolerateFailures?: boolean } = {}) =>
  runQueuedJobs(t.deps, ['extmail.sync'], options);
const credential = (id: string) =>
  t.deps.db.selectFrom('extmail_credentials').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const brandContacts = (brand: string) =>
  t.deps.db
    .selectFrom('contacts')
    .selectAll()
    .where('brand', '=', brand)
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .orderBy('display_name')
    .execute();

const person = (id: string, first: string, email: string, extra: Partial<FakeContact> = {}): FakeContact => ({
  id,
  givenName: first,
  surname: 'Mailbox',
  emailAddresses: [{ address: email }],
  ...extra,
});

describe('POST /users/self/extmail/:id/sync and the sync job', () => {
  it('imports over three syncs (create, update, remove) in pages, matching by email and never duplicating', async () => {
    const { owner, account, credential: id } = await linked();
    fake.pageSize = 2;
    // A contact the agent already has: the mailbox's entry with the same address (any case) merges into it.
    const existing = await t.app.inject({
      method: 'POST',
      url: '/contacts',
      headers: owner.headers,
      payload: { first_name: 'Known', emails: ['Known@Example.com'], tags: ['vip'] },
    });
    expect(existing.statusCode, existing.body).toBe(200);
    fake.putContact(
      account,
      person('c1', 'Ann', 'ann@example.com', {
        mobilePhone: '(214) 555-0101',
        birthday: '1980-05-17T11:59:00Z',
        companyName: 'Acme',
        jobTitle: 'Buyer',
        homeAddress: { street: '1 Main St', city: 'Dallas', state: 'TX', postalCode: '75201', countryOrRegion: 'US' },
      }),
    );
    fake.putContact(account, person('c2', 'Ben', 'ben@example.com'));
    fake.putContact(account, person('c3', 'Kim', 'known@example.com', { businessPhones: ['not a number'] }));
    fake.putContact(account, person('c4', 'Dup', 'ann@example.com'));
    fake.putContact(account, person('c5', 'Eve', 'not-an-email', { mobilePhone: '+44 20 7946 0958' }));

    const res = await sync(owner, id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.jobs).toEqual([
      {
        type: 'extmail_job',
        job_name: 'sync',
        status: 'queued',
        queued_at: expect.any(String),
        started_at: null,
        finished_at: null,
        error: null,
      },
    ]);
    // Asking again while queued queues nothing more.
    expect((await sync(owner, id)).statusCode).toBe(200);
    expect(await queuedJobs(t.deps, ['extmail.sync'])).toHaveLength(1);
    expect(await runSyncJobs()).toBe(1);

    let rows = await brandContacts(owner.brand);
    expect(rows).toHaveLength(4); // Known (merged with c3), Ann (c1 + c4, one address), Ben, Eve
    const ann = rows.find((r) => r.first_name === 'Dup' || r.first_name === 'Ann')!;
    expect(ann).toMatchObject({
      emails: ['ann@example.com'],
      phone_numbers: ['+12145550101'],
      birthday: '1980-05-17',
      company: 'Acme',
      job_title: 'Buyer',
      source_type: 'Microsoft',
      user_id: owner.user,
    });
    expect(ann.address).toEqual([
      expect.objectContaining({
        type: 'Home',
        line1: '1 Main St',
        city: 'Dallas',
        state: 'TX',
        postcode: '75201',
        country: 'US',
      }),
    ]);
    const known = rows.find((r) => r.id === existing.json().data.id)!;
    expect(known).toMatchObject({ first_name: 'Kim', last_name: 'Mailbox', tags: ['vip'], phone_numbers: [] });
    expect(known.emails.map((e) => e.toLowerCase())).toEqual(['known@example.com']);
    expect(rows.find((r) => r.first_name === 'Eve')).toMatchObject({ emails: [], phone_numbers: ['+442079460958'] });

    const stored = await credential(id);
    expect(stored).toMatchObject({ sync_status: 'succeeded', sync_error: null, contacts_sync_cursor: null });
    expect(stored.contacts_sync_token).toMatch(/\/me\/contacts\/delta\?\$deltatoken=/);
    expect(stored.cfolders_sync_token).toMatch(/\/me\/mailFolders\/delta\?\$deltatoken=/);
    const shown = (await t.app.inject({ url: `/users/self/extmail/${id}`, headers: owner.headers })).json().data;
    expect(shown).toMatchObject({
      contacts_sync_token: stored.contacts_sync_token,
      cfolders_sync_token: stored.cfolders_sync_token,
      jobs: [expect.objectContaining({ status: 'succeeded', error: null })],
    });
    const listed = await t.app.inject({ url: '/contacts?q=mailbox', headers: owner.headers });
    expect(listed.json().info.total).toBe(4);

    // A re-sync with no change writes no contact.
    const before = rows.map((r) => r.updated_at.getTime());
    await sync(owner, id);
    await runSyncJobs();
    rows = await brandContacts(owner.brand);
    expect(rows.map((r) => r.updated_at.getTime())).toEqual(before);

    // Second round: one changed, one new.
    t.clock.advance(60);
    fake.putContact(account, person('c2', 'Benjamin', 'ben@example.com', { jobTitle: 'Seller' }));
    fake.putContact(account, person('c6', 'Fay', 'fay@example.com'));
    await sync(owner, id);
    await runSyncJobs();
    rows = await brandContacts(owner.brand);
    expect(rows).toHaveLength(5);
    expect(rows.find((r) => r.emails.includes('ben@example.com'))).toMatchObject({
      first_name: 'Benjamin',
      job_title: 'Seller',
    });

    // Third round: a removal soft-deletes the imported contact.
    const ben = rows.find((r) => r.emails.includes('ben@example.com'))!;
    fake.removeContact(account, 'c2');
    await sync(owner, id);
    await runSyncJobs();
    rows = await brandContacts(owner.brand);
    expect(rows).toHaveLength(4);
    expect(rows.some((r) => r.id === ben.id)).toBe(false);
    expect((await t.app.inject({ url: `/contacts/${ben.id}`, headers: owner.headers })).statusCode).toBe(404);
    expect(
      await t.deps.db.selectFrom('domain_events').select('event').where('subject', '=', ben.id).orderBy('id').execute(),
    ).toEqual([{ event: 'create' }, { event: 'update' }, { event: 'delete' }]);
    fake.pageSize = 100;
  });

  it('refreshes an expired access token and stores the rotated refresh token', async () => {
    const { owner, account, credential: id } = await linked();
    const before = await credential(id);
    const oldRefresh = t.deps.secrets.decrypt(before.refresh_token_sealed!);
    // The provider has expired the token although we think it is good: the 401 triggers one refresh.
    fake.expireAccessTokens();
    await sync(owner, id);
    await runSyncJobs();
    const after = await credential(id);
    expect(after.sync_status).toBe('succeeded');
    const newRefresh = t.deps.secrets.decrypt(after.refresh_token_sealed!);
    expect(newRefresh).not.toBe(oldRefresh);
    expect(fake.liveRefreshTokens(account)).toEqual([newRefresh]);
    expect(after.access_token_sealed).not.toBe(before.access_token_sealed);
    // Expiry by our own clock refreshes before calling.
    t.clock.advance(2 * 3600);
    await sync(owner, id);
    await runSyncJobs();
    expect(fake.liveRefreshTokens(account)).not.toContain(newRefresh);
    expect(t.deps.secrets.decrypt((await credential(id)).refresh_token_sealed!)).toBe(
      fake.liveRefreshTokens(account)[0],
    );
  });

  it('marks a credential revoked when the provider refuses the refresh (invalid_grant) and tells the user', async () => {
    const { owner, account, credential: id } = await linked();
    fake.revokeGrants(account);
    await sync(owner, id);
    await runSyncJobs();
    const stored = await credential(id);
    expect(stored).toMatchObject({ revoked: true, sync_status: 'failed' });
    const shown = (await t.app.inject({ url: `/users/self/extmail/${id}`, headers: owner.headers })).json().data;
    expect(shown).toMatchObject({
      revoked: true,
      jobs: [expect.objectContaining({ status: 'failed', error: expect.stringContaining('revoked') })],
    });
    const notes = await t.deps.db
      .selectFrom('notifications as n')
      .innerJoin('notification_recipients as r', 'r.notification', 'n.id')
      .select(['n.notification_type', 'n.message'])
      .where('r.user', '=', owner.user)
      .execute();
    expect(notes).toEqual([
      { notification_type: 'ExtmailCredentialRevoked', message: expect.stringContaining(stored.email) },
    ]);
    const again = await sync(owner, id);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('Conflict');
    expect(await queuedJobs(t.deps, ['extmail.sync'])).toHaveLength(0);
  });

  it('honours Retry-After when Graph throttles, then finishes', async () => {
    const { owner, account, credential: id } = await linked();
    fake.putContact(account, person('t1', 'Throttled', 'throttled@example.com'));
    fake.throttleNext(1, 429, '120');
    await sync(owner, id);
    await runSyncJobs();
    const waiting = await credential(id);
    expect(waiting).toMatchObject({ sync_status: 'queued', sync_error: expect.stringContaining('throttled') });
    const [job] = await queuedJobs(t.deps, ['extmail.sync']);
    expect(job!.startAfter.getTime()).toBe(t.clock.now().getTime() + 120_000);
    expect(await runSyncJobs({ dueBy: new Date(t.clock.now().getTime() + 60_000) })).toBe(0);
    fake.throttleNext(1, 503, '5');
    t.clock.advance(121);
    await runSyncJobs();
    expect((await credential(id)).sync_status).toBe('queued');
    t.clock.advance(6);
    await runSyncJobs();
    expect(await credential(id)).toMatchObject({ sync_status: 'succeeded', sync_error: null });
    expect((await brandContacts(owner.brand)).map((r) => r.first_name)).toEqual(['Throttled']);
  });

  it('records garbage from Graph as a failure the queue retries; the API keeps answering', async () => {
    const { owner, credential: id } = await linked();
    fake.garbageNext(1);
    await sync(owner, id);
    await runSyncJobs({ tolerateFailures: true });
    expect(await credential(id)).toMatchObject({
      sync_status: 'failed',
      sync_error: expect.stringContaining('bad_response'),
    });
    const shown = await t.app.inject({ url: `/users/self/extmail/${id}`, headers: owner.headers });
    expect(shown.statusCode).toBe(200);
    const [retry] = await queuedJobs(t.deps, ['extmail.sync']);
    expect(retry).toBeDefined();
    await runSyncJobs();
    expect((await credential(id)).sync_status).toBe('succeeded');
  });

  it('resumes after a stop between pages without duplicating', async () => {
    const { owner, account, credential: id } = await linked();
    fake.pageSize = 2;
    for (let i = 1; i <= 5; i++) fake.putContact(account, person(`r${i}`, `Resume${i}`, `resume${i}@example.com`));
    const stopped = new AbortController();
    stopped.abort();
    await runSync(t.deps, id, stopped.signal);
    const paused = await credential(id);
    expect(paused.contacts_sync_cursor).toMatch(/skiptoken=2/);
    expect(paused.sync_status).toBe('queued');
    expect(await brandContacts(owner.brand)).toHaveLength(2);
    await runSyncJobs();
    expect((await brandContacts(owner.brand)).map((r) => r.first_name).sort()).toEqual([
      'Resume1',
      'Resume2',
      'Resume3',
      'Resume4',
      'Resume5',
    ]);
    expect(await credential(id)).toMatchObject({ sync_status: 'succeeded', contacts_sync_cursor: null });
    fake.pageSize = 100;
  });

  it('answers 409 for a deleted credential and 404 for another user’s', async () => {
    const { owner, credential: id } = await linked();
    const other = await mailboxOwner(t.deps, { brand: owner.brand });
    expect((await sync(other, id)).statusCode).toBe(404);
    await t.app.inject({ method: 'DELETE', url: `/users/self/extmail/${id}`, headers: owner.headers });
    const res = await sync(owner, id);
    expect(res.statusCode).toBe(409);
    expect((await sync(other, id)).statusCode).toBe(404);
  });

  it('queues the periodic sync of credentials not synced within the interval', async () => {
    const { credential: id } = await linked();
    await runSyncJobs(); // nothing queued yet for this one
    await handlerOf(syncDueTask.name).run(t.deps, {}, new AbortController().signal);
    expect((await credential(id)).sync_status).toBe('queued');
    await runSyncJobs();
    expect((await credential(id)).sync_status).toBe('succeeded');
    await handlerOf(syncDueTask.name).run(t.deps, {}, new AbortController().signal);
    expect((await credential(id)).sync_status).toBe('succeeded'); // synced just now: not due
    t.clock.advance(16 * 60);
    await handlerOf(syncDueTask.name).run(t.deps, {}, new AbortController().signal);
    expect((await credential(id)).sync_status).toBe('queued');
    await runSyncJobs();
  });
});
