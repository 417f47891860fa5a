// Contact sync of a linked mailbox (issue: a 20,000-contact mailbox imported at ≥ 2,000 contacts/s; a re-sync with
// no changes ≤ 2 s). The mailbox is the loopback Microsoft fake (test/fakes/microsoft.ts), served from this
// process over real HTTP; the sync is the job's own code (runSync) on the bench database.
import { sql } from 'kysely';
import { loadConfig } from '../src/config.js';
import { closeDeps, createDeps } from '../src/deps.js';
import type { Deps } from '../src/platform/deps.js';
import { runSync } from '../src/modules/extmail/sync.service.js';
import { FakeMicrosoft } from '../test/fakes/microsoft.js';

export async function benchExtmailSync(
  deps: Deps,
  env: Record<string, string>,
  options: { contacts: number },
): Promise<{ notes: string[] }> {
  const fake = new FakeMicrosoft({ redirectUris: [] });
  await fake.start();
  fake.pageSize = 500;
  const syncDeps = await createDeps(loadConfig({ ...env, ...fake.env() }));
  try {
    const account = { id: 'bench-mailbox', mail: 'bench@contoso.test', displayName: 'Bench Mailbox' };
    for (let i = 0; i < options.contacts; i++) {
      fake.putContact(account.id, {
        id: `bc-${i}`,
        givenName: `Given${i}`,
        surname: `Surname${i % 997}`,
        emailAddresses: [{ address: `person${i}@bench.example` }],
        mobilePhone: `+1214${String(5_000_000 + i).padStart(7, '0')}`,
        companyName: i % 3 === 0 ? `Company ${i % 50}` : null,
        jobTitle: i % 5 === 0 ? 'Buyer' : null,
        birthday: i % 7 === 0 ? '1980-05-17T11:59:00Z' : null,
      });
    }
    const brand = await deps.db
      .insertInto('brands')
      .values({ name: 'Extmail bench brokerage', marketing_palette: '{}', deleted_at: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const user = await deps.db.selectFrom('users').select('id').limit(1).executeTakeFirstOrThrow();
    const tokens = fake.issueTokens(account);
    const now = new Date();
    const credential = await deps.db
      .insertInto('extmail_credentials')
      .values({
        user: user.id,
        brand: brand.id,
        provider: 'microsoft',
        remote_id: account.id,
        email: account.mail,
        resource_name: `users/${account.id}`,
        display_name: account.displayName,
        first_name: null,
        last_name: null,
        photo: null,
        scope: JSON.stringify(['Contacts.Read']),
        scope_summary: JSON.stringify(['profile', 'contacts.read']),
        access_token_sealed: syncDeps.secrets.encrypt(tokens.accessToken),
        refresh_token_sealed: syncDeps.secrets.encrypt(tokens.refreshToken),
        access_expires_at: new Date(now.getTime() + tokens.expiresIn * 1000),
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const signal = new AbortController().signal;
    const started = performance.now();
    await runSync(syncDeps, credential.id, signal);
    const firstSeconds = (performance.now() - started) / 1000;
    const imported = await deps.db
      .selectFrom('contacts')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('brand', '=', brand.id)
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    const status = await deps.db
      .selectFrom('extmail_credentials')
      .select(['sync_status', 'sync_error'])
      .where('id', '=', credential.id)
      .executeTakeFirstOrThrow();
    await sql`analyze contacts`.execute(deps.db);
    const again = performance.now();
    await runSync(syncDeps, credential.id, signal);
    const resyncSeconds = (performance.now() - again) / 1000;
    return {
      notes: [
        `extmail sync: ${options.contacts} contacts in the mailbox (pages of 500) → ${imported.n} imported in ${firstSeconds.toFixed(2)} s = ${Math.round(Number(imported.n) / firstSeconds)} contacts/s (status ${status.sync_status}${status.sync_error ? `: ${status.sync_error}` : ''})`,
        `extmail re-sync with no changes: ${resyncSeconds.toFixed(2)} s`,
      ],
    };
  } finally {
    await closeDeps(syncDeps);
    await fake.stop();
  }
}
