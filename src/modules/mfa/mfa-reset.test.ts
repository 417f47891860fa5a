// Resetting a member's MFA (issue 33 item 5): by an Admin of the member's brokerage through the API, or by the
// operator with `gable admin user mfa-reset`; either way the secret and recovery codes go and a Security event
// records it.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { runAdminCommand } from '../../../test/helpers/cli.js';
import { addMembership, bearer, createBrand, createUser, tokenFor } from '../../../test/helpers/factories.js';
import { totpCode } from '../../../test/helpers/oauth.js';
import { registerMfaCommands } from './mfa.cli.js';

describe('MFA reset by an Admin and by the operator', () => {
  const t = useTestApp();
  let brokerage: string;
  let office: string;
  let otherBrokerage: string;
  let admin: { id: string };
  let crmOnly: { id: string };
  let otherAdmin: { id: string };
  beforeAll(async () => {
    brokerage = (await createBrand(t.deps)).id;
    office = (await createBrand(t.deps, { parent: brokerage })).id;
    otherBrokerage = (await createBrand(t.deps)).id;
    admin = await createUser(t.deps);
    await addMembership(t.deps, admin.id, brokerage, ['Admin']);
    crmOnly = await createUser(t.deps);
    await addMembership(t.deps, crmOnly.id, brokerage, ['CRM']);
    otherAdmin = await createUser(t.deps);
    await addMembership(t.deps, otherAdmin.id, otherBrokerage, ['Admin']);
  });

  const tokenOf = async (userId: string) => bearer(await tokenFor(t.deps, userId, { mfaValidated: true }));
  const reset = async (by: { id: string }, brand: string, userId: string) =>
    t.app.inject({ method: 'DELETE', url: `/brands/${brand}/users/${userId}/mfa`, headers: await tokenOf(by.id) });

  /** An agent of the office with MFA enabled (and so ten recovery codes). */
  async function agentWithMfa() {
    const agent = await createUser(t.deps);
    await addMembership(t.deps, agent.id, office, ['CRM']);
    const headers = await tokenOf(agent.id);
    const setup = await t.app.inject({ method: 'POST', url: '/users/self/mfa/setup', headers });
    const token = totpCode(t, setup.json().data.mfa_url);
    const verified = await t.app.inject({ method: 'POST', url: '/users/self/mfa/verify', headers, payload: { token } });
    expect(verified.statusCode).toBe(200);
    return agent;
  }
  const mfaOf = async (userId: string) => ({
    user: await t.deps.db
      .selectFrom('users')
      .select(['mfa_enabled', 'mfa_secret', 'mfa_last_step'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow(),
    codes: (await t.deps.db.selectFrom('mfa_recovery_codes').select('code_hash').where('user', '=', userId).execute())
      .length,
  });
  const eventsOf = (userId: string) =>
    t.deps.db
      .selectFrom('domain_events')
      .select(['brand', 'topic', 'event', 'subject', 'payload'])
      .where('subject', '=', userId)
      .orderBy('brand')
      .execute();

  /** The user's token families: live (revoked_at null) or revoked, with why. */
  const familiesOf = async (userId: string) =>
    (
      await t.deps.db
        .selectFrom('token_families')
        .select(['revoked_at', 'revoked_reason'])
        .where('user', '=', userId)
        .execute()
    ).map((f) => (f.revoked_at === null ? 'live' : f.revoked_reason));

  it('ends every login of the user: validated ones, one still waiting for its code, and page sessions', async () => {
    const agent = await agentWithMfa();
    const validated = await tokenFor(t.deps, agent.id, { mfaValidated: true });
    // Waiting for its MFA code: once the flag is cleared the gate would no longer hold it back.
    const waiting = await tokenFor(t.deps, agent.id);
    const selfWith = async (token: { access_token: string }) =>
      (await t.app.inject({ method: 'GET', url: '/users/self', headers: bearer(token) })).statusCode;
    expect(await selfWith(validated)).toBe(200);
    const session = await t.deps.db
      .insertInto('web_sessions')
      .values({
        session_hash: Buffer.alloc(32, 7),
        csrf_secret: 'csrf',
        user: agent.id,
        mfa_passed: true,
        signed_in_at: t.clock.now(),
        pending: null,
        expires_at: new Date(t.clock.now().getTime() + 3600_000),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const live = await familiesOf(agent.id);
    expect(live).toEqual(['live', 'live', 'live']);

    expect((await reset(admin, brokerage, agent.id)).statusCode).toBe(204);
    expect(await familiesOf(agent.id)).toEqual(['mfa_reset', 'mfa_reset', 'mfa_reset']);
    expect(await selfWith(validated)).toBe(401);
    expect(await selfWith(waiting)).toBe(401);
    const after = await t.deps.db
      .selectFrom('web_sessions')
      .select(['user', 'mfa_passed'])
      .where('id', '=', session.id)
      .executeTakeFirstOrThrow();
    expect(after).toEqual({ user: null, mfa_passed: false });
    const [event] = await eventsOf(agent.id);
    expect(event?.payload).toMatchObject({ revoked_logins: 3 });
    // A new login works without MFA, as the reset intends.
    expect(await selfWith(await tokenFor(t.deps, agent.id))).toBe(200);
  });

  it("lets an Admin of the member's brokerage reset it: secret and codes gone, an audit event recorded", async () => {
    const agent = await agentWithMfa();
    expect(await mfaOf(agent.id)).toMatchObject({ user: { mfa_enabled: true }, codes: 10 });
    const res = await reset(admin, brokerage, agent.id);
    expect(res.statusCode).toBe(204);
    expect(await mfaOf(agent.id)).toEqual({
      user: { mfa_enabled: false, mfa_secret: null, mfa_last_step: null },
      codes: 0,
    });
    expect(await eventsOf(agent.id)).toEqual([
      {
        brand: brokerage,
        topic: 'Security',
        event: 'UserMfaReset',
        subject: agent.id,
        payload: { user: agent.id, by: admin.id, via: 'api', at: expect.any(String), revoked_logins: 1 },
      },
    ]);
    // a new login of the agent is no longer gated
    const fresh = bearer(await tokenFor(t.deps, agent.id));
    expect((await t.app.inject({ method: 'GET', url: '/users/self', headers: fresh })).statusCode).toBe(200);
  });

  it('refuses an Admin of another brokerage (403 on the brand, 404 for a user outside their own), and non-Admins', async () => {
    const agent = await agentWithMfa();
    expect((await reset(otherAdmin, brokerage, agent.id)).statusCode).toBe(403);
    expect((await reset(otherAdmin, otherBrokerage, agent.id)).statusCode).toBe(404);
    expect((await reset(crmOnly, brokerage, agent.id)).statusCode).toBe(403);
    expect((await reset(admin, brokerage, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await reset(admin, brokerage, 'not-a-uuid')).statusCode).toBe(400);
    expect(await mfaOf(agent.id)).toMatchObject({ user: { mfa_enabled: true }, codes: 10 });
    expect(await eventsOf(agent.id)).toEqual([]);
  });

  it('resets from the command line by email, with an event for each brand of the user', async () => {
    const agent = await agentWithMfa();
    await addMembership(t.deps, agent.id, otherBrokerage, ['CRM']);
    const email = (
      await t.deps.db.selectFrom('users').select('email').where('id', '=', agent.id).executeTakeFirstOrThrow()
    ).email;
    const run = await runAdminCommand(registerMfaCommands, t.deps, 'user', 'mfa-reset', '--user', email);
    expect(run.exitCode).toBeUndefined();
    expect(run.out).toBe(`MFA reset for ${agent.id} <${email}>`);
    expect(await mfaOf(agent.id)).toMatchObject({ user: { mfa_enabled: false, mfa_secret: null }, codes: 0 });
    const events = await eventsOf(agent.id);
    expect(events.map((e) => e.brand).sort()).toEqual([office, otherBrokerage].sort());
    for (const e of events)
      expect(e).toMatchObject({
        topic: 'Security',
        event: 'UserMfaReset',
        payload: { by: null, via: 'cli', revoked_logins: 1 },
      });
    // The login the agent set MFA up with is over.
    expect(await familiesOf(agent.id)).toEqual(['mfa_reset']);
    const unknown = await runAdminCommand(
      registerMfaCommands,
      t.deps,
      'user',
      'mfa-reset',
      '--user',
      'nobody@example.com',
    );
    expect(unknown.exitCode).toBe(1);
    expect(unknown.err).toContain('nobody@example.com');
  });
});
