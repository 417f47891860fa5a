// Linking a mailbox (spec §2.4, §4.3; decisions §12): the link URL, the whole browser flow against the loopback
// Microsoft fake, tokens sealed at rest, and the attacks (forged, expired and replayed state, open redirect,
// another user's credential).
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import {
  authorizeAtProvider,
  callback,
  CALLBACK,
  fakeEnv,
  linkMailbox,
  mailboxOwner,
  startLink,
  useFakeMicrosoft,
} from '../../../test/helpers/extmail.js';

const fake = useFakeMicrosoft();
const t = useTestApp({ env: fakeEnv(fake) });

const credentialCount = async () =>
  Number(
    (
      await t.deps.db
        .selectFrom('extmail_credentials')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('GET /extmail/linked', () => {
  it('says the mailbox is linked, or why not, in a page that escapes what the redirect carried', async () => {
    const linked = await t.app.inject({ url: '/extmail/linked' });
    expect(linked.statusCode).toBe(200);
    expect(linked.headers['content-type']).toContain('text/html');
    expect(linked.body).toContain('Mailbox linked');
    const failed = await t.app.inject({
      url: '/extmail/linked?error=access_denied&error_description=%3Cscript%3Ealert(1)%3C%2Fscript%3E',
    });
    expect(failed.statusCode).toBe(200);
    expect(failed.body).toContain('The mailbox was not linked');
    expect(failed.body).toContain('(access_denied)');
    expect(failed.body).not.toContain('<script>alert(1)</script>');
    expect(failed.body).toContain('&lt;script&gt;');
  });
});

describe('POST /users/self/extmail', () => {
  it('answers the identity platform authorize URL with PKCE and a signed user::brand::redirect::signature state', async () => {
    const owner = await mailboxOwner(t.deps);
    const res = await startLink(t, owner, { body: ['Contacts.Read', 'Mail.Send'] });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    // No WEB_URL here: the web app is this server, so the browser comes back to its own page for it.
    expect(data).toEqual({
      type: 'extmail_auth_link',
      url: expect.any(String),
      redirect: 'http://gable.test/extmail/linked',
    });
    const url = new URL(data.url);
    expect(url.origin + url.pathname).toBe(`${fake.url}/common/oauth2/v2.0/authorize`);
    const q = url.searchParams;
    expect(q.get('client_id')).toBe(fake.clientId);
    expect(q.get('response_type')).toBe('code');
    expect(q.get('redirect_uri')).toBe(CALLBACK);
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get('scope')!.split(' ').sort()).toEqual(
      ['Contacts.Read', 'Mail.Send', 'User.Read', 'email', 'offline_access', 'openid', 'profile'].sort(),
    );
    const parts = q.get('state')!.split('::');
    expect(parts.slice(0, 3)).toEqual([owner.user, owner.brand, 'http://gable.test/extmail/linked']);
    expect(parts[3]).toMatch(/^[A-Za-z0-9_-]+\.\d+\.[0-9a-f]{64}$/);
  });

  it('accepts a redirect on this server or registered for the calling client, and refuses a foreign one (nothing stored)', async () => {
    const owner = await mailboxOwner(t.deps);
    for (const redirect of ['http://gable.test/settings/accounts?tab=mail', 'https://partner.example/after-link']) {
      const res = await startLink(t, owner, { redirect });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.redirect).toBe(redirect);
    }
    const before = await credentialCount();
    for (const redirect of [
      'https://evil.example/',
      'https://partner.example/after-link/../elsewhere',
      'https://partner.example.evil.example/after-link',
      'javascript:alert(1)',
      '//evil.example',
      'http://gable.test@evil.example/',
    ]) {
      const res = await startLink(t, owner, { redirect });
      expect(res.statusCode, redirect).toBe(400);
      expect(res.json()).toMatchObject({ code: 'Validation', attributes: { redirect: [expect.any(String)] } });
    }
    expect(await credentialCount()).toBe(before);
  });

  it('takes a request without a body as one asking for the defaults (a JSON null is still refused)', async () => {
    const owner = await mailboxOwner(t.deps);
    const bare = await t.app.inject({ method: 'POST', url: '/users/self/extmail', headers: owner.headers });
    expect(bare.statusCode, bare.body).toBe(200);
    const scopes = new URL(bare.json().data.url).searchParams.get('scope')!.split(' ');
    expect(scopes).toEqual(expect.arrayContaining(['Contacts.Read', 'Mail.Read', 'Mail.Send']));
    const nullBody = await t.app.inject({
      method: 'POST',
      url: '/users/self/extmail',
      headers: { ...owner.headers, 'content-type': 'application/json' },
      payload: 'null',
    });
    expect(nullBody.statusCode).toBe(400);
  });

  it('refuses unknown scopes and bad bodies with a 400', async () => {
    const owner = await mailboxOwner(t.deps);
    for (const payload of [
      { body: ['Mail.ReadWrite'] },
      { body: ['Contacts.Read', 'Files.Read'] },
      { body: 'Mail.Send' },
      { redirect: 42 },
    ]) {
      const res = await startLink(t, owner, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('Validation');
    }
  });

  it('needs a brand the caller belongs to', async () => {
    const owner = await mailboxOwner(t.deps);
    const stranger = await mailboxOwner(t.deps);
    const res = await t.app.inject({
      method: 'POST',
      url: '/users/self/extmail',
      headers: { ...owner.headers, 'x-rechat-brand': stranger.brand },
      payload: {},
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('the callback', () => {
  it('exchanges the code, reads /me and the photo, stores the credential with sealed tokens and redirects back', async () => {
    const owner = await mailboxOwner(t.deps);
    fake.account = {
      id: 'remote-photo',
      mail: 'photo@contoso.test',
      displayName: 'Pat Photo',
      givenName: 'Pat',
      surname: 'Photo',
      photo: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]),
    };
    const { back, row } = await linkMailbox(t, owner, {
      redirect: 'https://partner.example/after-link',
      body: ['Contacts.Read', 'Mail.Send'],
    });
    expect(back.headers.location).toBe('https://partner.example/after-link');
    expect(row).toMatchObject({
      remote_id: 'remote-photo',
      email: 'photo@contoso.test',
      display_name: 'Pat Photo',
      first_name: 'Pat',
      last_name: 'Photo',
      resource_name: 'users/remote-photo',
      revoked: false,
      provider: 'microsoft',
    });
    expect(row.photo).toBe(
      `data:image/jpeg;base64,${Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]).toString('base64')}`,
    );
    // The code went back with the PKCE verifier that matches the challenge (the fake checks it) and our redirect URI.
    const exchange = fake.requests.filter((r) => r.form?.get('grant_type') === 'authorization_code').at(-1)!;
    expect(exchange.form!.get('redirect_uri')).toBe(CALLBACK);
    expect(exchange.form!.get('code_verifier')).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // Encryption at rest: the live refresh token is nowhere in the table's text, but the sealed value opens to it.
    const [refresh] = fake.liveRefreshTokens('remote-photo');
    expect(refresh).toBeDefined();
    const raw = await sql<{
      text: string;
    }>`select c::text as text from extmail_credentials c where id = ${row.id}::uuid`.execute(t.deps.db);
    expect(raw.rows[0]!.text).not.toContain(refresh);
    expect(raw.rows[0]!.text).not.toMatch(/at-[0-9a-f]{32}/);
    expect(t.deps.secrets.decrypt(row.refresh_token_sealed!)).toBe(refresh);
    expect(t.deps.secrets.decrypt(row.access_token_sealed!)).toMatch(/^at-/);

    const read = await t.app.inject({ url: `/users/self/extmail/${row.id}`, headers: owner.headers });
    expect(read.statusCode).toBe(200);
    const data = read.json().data;
    expect(data).toEqual({
      type: 'extmail_credential',
      id: row.id,
      user: owner.user,
      brand: owner.brand,
      email: 'photo@contoso.test',
      remote_id: 'remote-photo',
      display_name: 'Pat Photo',
      first_name: 'Pat',
      last_name: 'Photo',
      photo: row.photo,
      scope: ['Contacts.Read', 'Mail.Send'],
      scope_summary: ['profile', 'contacts.read', 'mail.send'],
      revoked: false,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
      deleted_at: null,
      extmail_calendar: null,
      send_email_after: null,
      cfolders_sync_token: null,
      people_apis_enabled: false,
      contacts_sync_token: null,
      jobs: null,
      profile_image_url: row.photo,
    });
    expect(data.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(read.body).not.toContain(refresh);
  });

  it('keeps one credential per (user, brand, remote account): linking again updates it, another account adds one', async () => {
    const owner = await mailboxOwner(t.deps);
    fake.account = { id: 'remote-relink', mail: 'first@contoso.test', displayName: 'First Name' };
    const first = await linkMailbox(t, owner);
    fake.account = { id: 'remote-relink', mail: 'renamed@contoso.test', displayName: 'Renamed' };
    const again = await linkMailbox(t, owner, { body: ['Mail.Read'] });
    expect(again.row.id).toBe(first.row.id);
    expect(again.row).toMatchObject({ email: 'renamed@contoso.test', display_name: 'Renamed', scope: ['Mail.Read'] });
    t.clock.advance(1); // the list is oldest first
    fake.account = { id: 'remote-other', mail: 'other@contoso.test', displayName: 'Other' };
    const other = await linkMailbox(t, owner);
    expect(other.row.id).not.toBe(first.row.id);
    const list = await t.app.inject({
      url: '/users/self/extmail?associations=extmail_credential.jobs',
      headers: owner.headers,
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().info).toEqual({ count: 2, total: 2 });
    expect(list.json().data.map((c: { remote_id: string }) => c.remote_id)).toEqual(['remote-relink', 'remote-other']);
  });

  it('refuses a replayed state with an error page and stores nothing more', async () => {
    const owner = await mailboxOwner(t.deps);
    fake.account = { id: 'remote-replay', mail: 'replay@contoso.test', displayName: 'Replay' };
    const link = await startLink(t, owner);
    const path = await authorizeAtProvider(link.json().data.url);
    expect((await callback(t, path)).statusCode).toBe(302);
    const row = await t.deps.db
      .selectFrom('extmail_credentials')
      .selectAll()
      .where('remote_id', '=', 'remote-replay')
      .executeTakeFirstOrThrow();
    const replay = await callback(t, path);
    expect(replay.statusCode).toBe(400);
    expect(replay.headers['content-type']).toMatch(/^text\/html/);
    expect(replay.headers.location).toBeUndefined();
    expect(replay.body).toContain('already used');
    const after = await t.deps.db
      .selectFrom('extmail_credentials')
      .selectAll()
      .where('remote_id', '=', 'remote-replay')
      .execute();
    expect(after).toHaveLength(1);
    expect(after[0]!.updated_at).toEqual(row.updated_at);
  });

  it('refuses a forged state (another user, another redirect, no signature) without redirecting or storing', async () => {
    const owner = await mailboxOwner(t.deps);
    const victim = await mailboxOwner(t.deps);
    fake.account = { id: 'remote-forged', mail: 'forged@contoso.test', displayName: 'Forged' };
    const link = await startLink(t, owner);
    const path = await authorizeAtProvider(link.json().data.url);
    const url = new URL(path, 'http://gable.test');
    const state = url.searchParams.get('state')!;
    const forgeries = [
      state.replace(owner.user, victim.user).replace(owner.brand, victim.brand),
      state.replace('http://gable.test/', 'https://evil.example/'),
      state.split('::').slice(0, 3).join('::'),
      `${victim.user}::${victim.brand}::https://evil.example/::nonce.9999999999.${'0'.repeat(64)}`,
      'garbage',
    ];
    const before = await credentialCount();
    for (const forged of forgeries) {
      url.searchParams.set('state', forged);
      const res = await callback(t, url.pathname + url.search);
      expect(res.statusCode, forged).toBe(400);
      expect(res.headers.location).toBeUndefined();
      expect(res.body).toContain('not valid');
    }
    const missing = await callback(t, `/extmail/callback?code=${url.searchParams.get('code')}`);
    expect(missing.statusCode).toBe(400);
    expect(await credentialCount()).toBe(before);
  });

  it('refuses an expired state', async () => {
    const owner = await mailboxOwner(t.deps);
    const link = await startLink(t, owner);
    const path = await authorizeAtProvider(link.json().data.url);
    t.clock.advance(31 * 60);
    const before = await credentialCount();
    const res = await callback(t, path);
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('expired');
    expect(await credentialCount()).toBe(before);
  });

  it('sends a declined consent back to the redirect with error=access_denied and stores nothing', async () => {
    const owner = await mailboxOwner(t.deps);
    const link = await startLink(t, owner, { redirect: 'https://partner.example/after-link' });
    fake.declineNext = true;
    const before = await credentialCount();
    const res = await callback(t, await authorizeAtProvider(link.json().data.url));
    expect(res.statusCode).toBe(302);
    const location = new URL(res.headers.location as string);
    expect(location.origin + location.pathname).toBe('https://partner.example/after-link');
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(await credentialCount()).toBe(before);
  });

  it('sends a refused code back with error=invalid_grant', async () => {
    const owner = await mailboxOwner(t.deps);
    const link = await startLink(t, owner);
    const path = await authorizeAtProvider(link.json().data.url);
    const url = new URL(path, 'http://gable.test');
    url.searchParams.set('code', 'not-a-code-the-provider-issued');
    const res = await callback(t, url.pathname + url.search);
    expect(res.statusCode).toBe(302);
    expect(new URL(res.headers.location as string).searchParams.get('error')).toBe('invalid_grant');
  });
});

describe('reading and deleting credentials', () => {
  it('shows a credential only to its owner (404 to anyone else, also on delete)', async () => {
    const owner = await mailboxOwner(t.deps);
    const other = await mailboxOwner(t.deps, { brand: owner.brand });
    fake.account = { id: 'remote-private', mail: 'private@contoso.test', displayName: 'Private' };
    const { row } = await linkMailbox(t, owner);
    for (const method of ['GET', 'DELETE'] as const) {
      const res = await t.app.inject({ method, url: `/users/self/extmail/${row.id}`, headers: other.headers });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('ResourceNotFound');
    }
    expect((await t.app.inject({ url: '/users/self/extmail', headers: other.headers })).json().info).toEqual({
      count: 0,
      total: 0,
    });
    expect((await t.app.inject({ url: `/users/self/extmail/${row.id}`, headers: owner.headers })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/users/self/extmail/not-a-uuid', headers: owner.headers })).statusCode).toBe(
      400,
    );
  });

  it('soft-deletes: answers the record with deleted_at, erases the tokens, and the credential is gone from reads', async () => {
    const owner = await mailboxOwner(t.deps);
    fake.account = { id: 'remote-delete', mail: 'delete@contoso.test', displayName: 'Delete Me' };
    const { row } = await linkMailbox(t, owner);
    t.clock.advance(5);
    const res = await t.app.inject({ method: 'DELETE', url: `/users/self/extmail/${row.id}`, headers: owner.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      id: row.id,
      deleted_at: t.clock.now().toISOString(),
      type: 'extmail_credential',
    });
    const stored = await t.deps.db
      .selectFrom('extmail_credentials')
      .selectAll()
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ access_token_sealed: null, refresh_token_sealed: null, access_expires_at: null });
    expect((await t.app.inject({ url: `/users/self/extmail/${row.id}`, headers: owner.headers })).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/users/self/extmail/${row.id}`, headers: owner.headers }))
        .statusCode,
    ).toBe(404);
    expect((await t.app.inject({ url: '/users/self/extmail', headers: owner.headers })).json().data).toEqual([]);
    // Linking the same account again makes a new credential (the deleted one stays deleted).
    const again = await linkMailbox(t, owner);
    expect(again.row.id).not.toBe(row.id);
  });
});

describe('without a Microsoft app configured', () => {
  const bare = useTestApp();
  it('answers 412 PreconditionFailed naming the missing setting', async () => {
    const owner = await mailboxOwner(bare.deps);
    const res = await bare.app.inject({
      method: 'POST',
      url: '/users/self/extmail',
      headers: owner.headers,
      payload: {},
    });
    expect(res.statusCode).toBe(412);
    expect(res.json()).toMatchObject({
      code: 'PreconditionFailed',
      message: expect.stringContaining('MICROSOFT_CLIENT_ID'),
    });
  });
});
