// PATCH /users/self (profile) and PATCH /users/self/password.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { TEST_PASSWORD, bearer, createUser, tokenFor } from '../../../test/helpers/factories.js';
import { verifyPassword } from '../../lib/passwords.js';

describe('PATCH /users/self', () => {
  const t = useTestApp();

  const patch = async (payload: unknown, headers: Record<string, string>) =>
    t.app.inject({ method: 'PATCH', url: '/users/self', headers, payload: payload as object });

  it('changes the profile fields sent and leaves the rest', async () => {
    const user = await createUser(t.deps, { first_name: 'Jane', last_name: 'Doe' });
    const auth = bearer(await tokenFor(t.deps, user.id));
    const res = await patch(
      {
        first_name: 'Janet',
        phone_number: '+14155550100',
        timezone: 'Europe/Berlin',
        bio: 'Hi',
        website: 'https://jane.example',
        daily_enabled: false,
        push_allowed: false,
        designation: 'CRS',
      },
      auth,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      first_name: 'Janet',
      last_name: 'Doe',
      display_name: 'Janet Doe',
      phone_number: '+14155550100',
      timezone: 'Europe/Berlin',
      bio: 'Hi',
      website: 'https://jane.example',
      daily_enabled: false,
      push_allowed: false,
      designation: 'CRS',
    });
    expect(res.json().data.current_time).toMatch(/GMT\+1|GMT\+2|CET|CEST/);
    const again = await t.app.inject({ method: 'GET', url: '/users/self', headers: auth });
    expect(again.json().data.first_name).toBe('Janet');
  });

  it('clears nullable fields with null', async () => {
    const user = await createUser(t.deps);
    const auth = bearer(await tokenFor(t.deps, user.id));
    await patch({ twitter: '@jane', username: 'jane' }, auth);
    const res = await patch({ twitter: null, username: null }, auth);
    expect(res.json().data).toMatchObject({ twitter: null, username: null });
    await patch({ website: 'https://x.example', phone_number: '+14155550100' }, auth);
    const emptied = await patch({ website: '', phone_number: '' }, auth);
    expect(emptied.statusCode).toBe(200);
    expect(emptied.json().data).toMatchObject({ website: null, phone_number: null });
  });

  it('accepts an empty body and changes nothing', async () => {
    const user = await createUser(t.deps, { first_name: 'Kim' });
    const res = await patch({}, bearer(await tokenFor(t.deps, user.id)));
    expect(res.statusCode).toBe(200);
    expect(res.json().data.first_name).toBe('Kim');
  });

  it('refuses an unknown time zone with attributes.timezone', async () => {
    const user = await createUser(t.deps);
    const res = await patch({ timezone: 'Mars/Olympus_Mons' }, bearer(await tokenFor(t.deps, user.id)));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ http: 400, code: 'Validation' });
    expect(res.json().attributes.timezone).toHaveLength(1);
  });

  it('refuses a phone number that is not E.164', async () => {
    const user = await createUser(t.deps);
    const res = await patch({ phone_number: '(415) 555-0100' }, bearer(await tokenFor(t.deps, user.id)));
    expect(res.statusCode).toBe(400);
    expect(res.json().attributes.phone_number).toBeDefined();
  });

  it('refuses wrong types with 400', async () => {
    const user = await createUser(t.deps);
    const auth = bearer(await tokenFor(t.deps, user.id));
    for (const payload of [{ daily_enabled: 'maybe' }, { timezone: { zone: 'UTC' } }, { first_name: ['a', 'b'] }]) {
      const res = await patch(payload, auth);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().http).toBe(400);
    }
  });

  it('ignores unknown fields and email', async () => {
    const user = await createUser(t.deps);
    const auth = bearer(await tokenFor(t.deps, user.id));
    const res = await patch(
      { email: 'someone-else@example.com', mfa_enabled: true, password_hash: 'x', favourite_color: 'blue', bio: 'ok' },
      auth,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ email: user.email, mfa_enabled: false, bio: 'ok' });
    expect(res.json().data).not.toHaveProperty('favourite_color');
  });

  it('takes PUT as PATCH (existing clients send PUT): same fields, same rules', async () => {
    const user = await createUser(t.deps, { first_name: 'Jane', last_name: 'Doe' });
    const auth = bearer(await tokenFor(t.deps, user.id));
    const put = (payload: object) => t.app.inject({ method: 'PUT', url: '/users/self', headers: auth, payload });
    const res = await put({ first_name: 'Janet', bio: 'Listing agent' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ first_name: 'Janet', last_name: 'Doe', bio: 'Listing agent' });
    expect((await put({ timezone: 'Mars/Olympus' })).json()).toMatchObject({
      http: 400,
      attributes: { timezone: expect.any(Array) },
    });
    expect((await put({ daily_enabled: 'maybe' })).statusCode).toBe(400);
  });
});

describe('PATCH /users/self/password', () => {
  const t = useTestApp();

  const change = async (payload: object, headers: Record<string, string>) =>
    t.app.inject({ method: 'PATCH', url: '/users/self/password', headers, payload });

  it('refuses a new password shorter than 8 characters', async () => {
    const user = await createUser(t.deps);
    const res = await change(
      { old_password: TEST_PASSWORD, new_password: 'short' },
      bearer(await tokenFor(t.deps, user.id)),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().attributes.new_password).toBeDefined();
  });

  it('answers 403 for a wrong old password and keeps the old one', async () => {
    const user = await createUser(t.deps);
    const res = await change(
      { old_password: 'not my password', new_password: 'a brand new secret' },
      bearer(await tokenFor(t.deps, user.id)),
    );
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('AccessForbidden');
    const row = await t.deps.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(await verifyPassword(row.password_hash, TEST_PASSWORD)).toBe(true);
  });

  it('answers 403 for a user who has no password', async () => {
    const user = await createUser(t.deps, { password: null });
    const res = await change(
      { old_password: '', new_password: 'a brand new secret' },
      bearer(await tokenFor(t.deps, user.id)),
    );
    expect(res.statusCode).toBe(403);
  });

  it('changes the password, revokes every other family and keeps the current one', async () => {
    const user = await createUser(t.deps);
    const current = await tokenFor(t.deps, user.id);
    const other = await tokenFor(t.deps, user.id);
    const partner = await tokenFor(t.deps, user.id);
    const res = await change({ old_password: TEST_PASSWORD, new_password: 'a brand new secret' }, bearer(current));
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');

    const row = await t.deps.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(await verifyPassword(row.password_hash, 'a brand new secret')).toBe(true);

    const families = await t.deps.db
      .selectFrom('token_families')
      .select(['id', 'revoked_at', 'revoked_reason'])
      .where('user', '=', user.id)
      .execute();
    const byId = new Map(families.map((f) => [f.id, f]));
    expect(byId.get(current.family)?.revoked_at).toBeNull();
    for (const revoked of [other, partner])
      expect(byId.get(revoked.family)).toMatchObject({ revoked_reason: 'password_changed' });

    expect((await t.app.inject({ method: 'GET', url: '/users/self', headers: bearer(current) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/users/self', headers: bearer(other) })).statusCode).toBe(401);
  });

  it("does not touch other users' families", async () => {
    const user = await createUser(t.deps);
    const bystander = await createUser(t.deps);
    const theirs = await tokenFor(t.deps, bystander.id);
    await change(
      { old_password: TEST_PASSWORD, new_password: 'another new secret' },
      bearer(await tokenFor(t.deps, user.id)),
    );
    expect((await t.app.inject({ method: 'GET', url: '/users/self', headers: bearer(theirs) })).statusCode).toBe(200);
  });
});
