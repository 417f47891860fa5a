// GET /users/self: every field of the record (spec §2.2) with real values, and nothing secret.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { addMembership, bearer, createBrand, createUser, tokenFor } from '../../../test/helpers/factories.js';
import { abbreviatedDisplayName, displayName, loadUserRecord } from './users.service.js';

// 2026-07-04 15:30 UTC = 10:30 in Chicago (CDT)
const NOW = new Date('2026-07-04T15:30:00Z');

describe('user record', () => {
  const t = useTestApp({ now: NOW });

  it('answers GET /users/self with every spec field and real values', async () => {
    const brand = await createBrand(t.deps, { name: 'Acme Realty' });
    const user = await createUser(t.deps, { first_name: 'Jane', last_name: 'Doe', timezone: 'America/Chicago' });
    await addMembership(t.deps, user.id, brand.id);
    const res = await t.app.inject({
      method: 'GET',
      url: '/users/self',
      headers: bearer(await tokenFor(t.deps, user.id)),
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.code).toBe('OK');
    const record = body.data;
    expect(record).toMatchObject({
      id: user.id,
      type: 'user',
      email: user.email,
      first_name: 'Jane',
      last_name: 'Doe',
      display_name: 'Jane Doe',
      abbreviated_display_name: 'Jane D.',
      timezone: 'America/Chicago',
      has_password: true,
      mfa_enabled: false,
      online_state: 'Offline',
      user_status: 'Active',
      user_type: 'Agent',
      email_quota: 30000,
      agents: null,
      brand: brand.id,
      active_brand: brand.id,
      deleted_at: null,
    });
    expect(record.current_time).toMatch(/July 4, 2026.*10:30\s?AM CDT/);
    expect(record.created_at).toBeCloseTo(user.created_at.getTime() / 1000, 3);
    expect(typeof record.updated_at).toBe('number');
    for (const field of [
      'password_hash',
      'mfa_secret',
      'mfa_last_step',
      'mfa_url',
      'mfa_qr_code',
      'newest_membership_brand',
    ]) {
      expect(record).not.toHaveProperty(field);
    }
    const specFields = [
      'id',
      'type',
      'username',
      'first_name',
      'last_name',
      'email',
      'phone_number',
      'created_at',
      'updated_at',
      'deleted_at',
      'address_id',
      'cover_image_url',
      'profile_image_url',
      'cover_image_thumbnail_url',
      'profile_image_thumbnail_url',
      'user_status',
      'email_confirmed',
      'phone_confirmed',
      'timezone',
      'user_type',
      'is_shadow',
      'personal_room',
      'brand',
      'active_brand',
      'fake_email',
      'features',
      'last_seen_at',
      'last_seen_type',
      'email_signature',
      'bio',
      'daily_enabled',
      'push_allowed',
      'has_password',
      'email_quota',
      'website',
      'instagram',
      'twitter',
      'linkedin',
      'youtube',
      'facebook',
      'tiktok',
      'designation',
      'mfa_enabled',
      'vendor_user_id',
      'current_time',
      'agents',
      'display_name',
      'abbreviated_display_name',
      'online_state',
    ];
    expect(Object.keys(record).sort()).toEqual([...specFields].sort());
  });

  it('formats current_time in the zone of the user, following the clock', async () => {
    const user = await createUser(t.deps, { timezone: 'Asia/Tokyo' });
    expect((await loadUserRecord(t.deps, user.id)).current_time).toMatch(/Sunday, July 5, 2026.*12:30\s?AM GMT\+9/);
    t.clock.advance(3600);
    expect((await loadUserRecord(t.deps, user.id)).current_time).toMatch(/1:30\s?AM/);
    t.clock.set(NOW);
  });

  it('says has_password false for a user without a password', async () => {
    const user = await createUser(t.deps, { password: null });
    expect((await loadUserRecord(t.deps, user.id)).has_password).toBe(false);
  });

  it('embeds linked agents with type agent and three masked secret questions', async () => {
    const user = await createUser(t.deps);
    const agent = await t.deps.db
      .insertInto('agents')
      .values({
        mls: 'NTREIS',
        mlsid: `A${user.id.slice(0, 6)}`,
        mls_unique_id: 'MUI-1',
        full_name: 'Jane Doe',
        license_number: 'TX-1',
        deleted_at: null,
      } as never)
      .returningAll()
      .executeTakeFirstOrThrow();
    await t.deps.db.insertInto('user_agents').values({ user: user.id, agent: agent.id }).execute();
    const record = await loadUserRecord(t.deps, user.id);
    expect(record.agents).toHaveLength(1);
    expect(record.agents![0]).toMatchObject({
      id: agent.id,
      type: 'agent',
      mls: 'NTREIS',
      full_name: 'Jane Doe',
      status: 'Active',
      deleted_at: null,
    });
    expect(record.agents![0]!.created_at).toBeCloseTo(agent.created_at.getTime() / 1000, 3);
    expect(record.agents![0]!.secret_questions).toHaveLength(3);
    expect(record.agents![0]!.secret_questions.every((q) => /^\*+$/.test(q))).toBe(true);
  });

  it('lists a live linked agent in GET /users/self, and none for a user linked only to a deleted one', async () => {
    const agentOf = async (user: { id: string }, deleted: boolean) => {
      const agent = await t.deps.db
        .insertInto('agents')
        .values({
          mls: 'NTREIS',
          mlsid: `B${user.id.slice(0, 6)}`,
          mls_unique_id: `MUI-${user.id}`,
          deleted_at: deleted ? NOW : null,
        } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
      await t.deps.db.insertInto('user_agents').values({ user: user.id, agent: agent.id }).execute();
      return agent.id;
    };
    const self = async (user: { id: string }) =>
      (
        await t.app.inject({ method: 'GET', url: '/users/self', headers: bearer(await tokenFor(t.deps, user.id)) })
      ).json().data;
    const linked = await createUser(t.deps);
    const agent = await agentOf(linked, false);
    expect((await self(linked)).agents.map((a: { id: string }) => a.id)).toEqual([agent]);
    const onlyDeleted = await createUser(t.deps);
    await agentOf(onlyDeleted, true);
    expect((await self(onlyDeleted)).agents).toBeNull();
  });

  it('answers 404 for a deleted user and 401 for their token', async () => {
    const user = await createUser(t.deps);
    const token = await tokenFor(t.deps, user.id);
    await t.deps.db.updateTable('users').set({ deleted_at: NOW }).where('id', '=', user.id).execute();
    await expect(loadUserRecord(t.deps, user.id)).rejects.toMatchObject({ http: 404 });
    const res = await t.app.inject({ method: 'GET', url: '/users/self', headers: bearer(token) });
    expect(res.statusCode).toBe(401);
  });

  it('documents the /users/self routes in OpenAPI', async () => {
    const spec = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    for (const [path, method] of [
      ['/users/self', 'get'],
      ['/users/self', 'patch'],
      ['/users/self/password', 'patch'],
      ['/users/self/active-brand', 'patch'],
    ] as const) {
      const operation = spec.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(operation.tags).toEqual(['Users']);
      expect(operation.summary).toBeTruthy();
    }
  });

  it('answers 401 without a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/users/self' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'UnauthorizedAccess' });
    expect(res.headers['www-authenticate']).toBe('Bearer');
  });

  it('builds display names from whatever names exist', () => {
    expect(displayName({ first_name: 'Jane', last_name: 'Doe', email: 'j@x.io' })).toBe('Jane Doe');
    expect(displayName({ first_name: '', last_name: '', email: 'j@x.io' })).toBe('j@x.io');
    expect(abbreviatedDisplayName({ first_name: 'Jane', last_name: 'Doe', email: 'j@x.io' })).toBe('Jane D.');
    expect(abbreviatedDisplayName({ first_name: 'Jane', last_name: '', email: 'j@x.io' })).toBe('Jane');
    expect(abbreviatedDisplayName({ first_name: '', last_name: 'Doe', email: 'j@x.io' })).toBe('Doe');
    expect(abbreviatedDisplayName({ first_name: 'Émile', last_name: 'Ørsted', email: 'e@x.io' })).toBe('Émile Ø.');
    expect(abbreviatedDisplayName({ first_name: '', last_name: '', email: 'j@x.io' })).toBe('j@x.io');
  });
});
