// Brute-force limits of the password grant (decisions §3): growing delays from the 5th consecutive failure,
// at most 100 failures per hour per account, a looser per-IP budget that a success does not reset.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { createClient, createUser } from '../../../test/helpers/factories.js';
import { passwordLogin } from '../../../test/helpers/oauth.js';
import { ACCOUNT_POLICY, AttemptLimiter, IP_POLICY, attemptKey } from '../../platform/attempts.js';

describe('password grant lock-out', () => {
  const t = useTestApp();
  let client: Awaited<ReturnType<typeof createClient>>;
  let ipCounter = 0;
  beforeAll(async () => {
    client = await createClient(t.deps, 'first_party');
  });

  /** Each test its own address, so the per-IP budget of one test does not leak into another. */
  const freshIp = () => `198.51.100.${++ipCounter}`;

  it('delays from the 5th consecutive failure, growing, with 429 and Retry-After; a success resets', async () => {
    const user = await createUser(t.deps);
    const ip = freshIp();
    for (let i = 0; i < 5; i++)
      expect((await passwordLogin(t.app, client, user.email, 'wrong', { ip })).statusCode).toBe(400);

    const blocked = await passwordLogin(t.app, client, user.email, undefined, { ip }); // even the right password waits
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBe('1');
    expect(blocked.json()).toMatchObject({ http: 429, code: 'TooManyRequests' });

    t.clock.advance(1);
    expect((await passwordLogin(t.app, client, user.email, 'wrong', { ip })).statusCode).toBe(400);
    const longer = await passwordLogin(t.app, client, user.email, 'wrong', { ip });
    expect(longer.statusCode).toBe(429);
    expect(longer.headers['retry-after']).toBe('2');

    t.clock.advance(2);
    expect((await passwordLogin(t.app, client, user.email, undefined, { ip })).statusCode).toBe(200);
    expect((await passwordLogin(t.app, client, user.email, 'wrong', { ip })).statusCode).toBe(400);
    expect((await passwordLogin(t.app, client, user.email, 'wrong', { ip })).statusCode).toBe(400);
  });

  it('limits the account, not just the address: another IP is blocked too', async () => {
    const user = await createUser(t.deps);
    for (let i = 0; i < 5; i++)
      await passwordLogin(t.app, client, user.email.toUpperCase(), 'wrong', { ip: freshIp() });
    expect((await passwordLogin(t.app, client, user.email, undefined, { ip: freshIp() })).statusCode).toBe(429);
  });

  it('holds against parallel guesses: only the attempts before the 5th failure get an answer', async () => {
    const user = await createUser(t.deps);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => passwordLogin(t.app, client, user.email, 'wrong', { ip: freshIp() })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([400, 400, 400, 400, 400, 429, 429, 429, 429, 429]);
  });

  it('blocks an account for the rest of the hour at 100 failures', async () => {
    const user = await createUser(t.deps);
    const started = t.clock.now();
    // 99 failures earlier this hour (spread out, so no delay is running)
    await t.deps.db
      .insertInto('attempt_counters')
      .values({
        key: attemptKey('account', user.email.toLowerCase(), ACCOUNT_POLICY).key,
        window_started_at: started,
        failures: 99,
        consecutive: 0,
        blocked_until: null,
      })
      .execute();
    t.clock.advance(600);
    expect((await passwordLogin(t.app, client, user.email, 'wrong', { ip: freshIp() })).statusCode).toBe(400);
    const blocked = await passwordLogin(t.app, client, user.email, undefined, { ip: freshIp() });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBe(String(3600 - 600));
    t.clock.advance(3600 - 600);
    expect((await passwordLogin(t.app, client, user.email, undefined, { ip: freshIp() })).statusCode).toBe(200);
  });

  it('does not let a valid login reset the IP budget of a password-spraying run', async () => {
    const ip = freshIp();
    const attackersOwn = await createUser(t.deps);
    for (let i = 0; i < IP_POLICY.freeConsecutive; i++) {
      expect(
        (await passwordLogin(t.app, client, `victim-${i}-${ipCounter}@example.com`, 'guess', { ip })).statusCode,
      ).toBe(400);
    }
    expect((await passwordLogin(t.app, client, attackersOwn.email, undefined, { ip })).statusCode).toBe(200);
    expect(
      (await passwordLogin(t.app, client, `victim-next-${ipCounter}@example.com`, 'guess', { ip })).statusCode,
    ).toBe(400);
    const blocked = await passwordLogin(t.app, client, `victim-last-${ipCounter}@example.com`, 'guess', { ip });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBe('1');
    const counter = await t.deps.db
      .selectFrom('attempt_counters')
      .select('consecutive')
      .where('key', '=', attemptKey('ip', ip, IP_POLICY).key)
      .executeTakeFirstOrThrow();
    expect(counter.consecutive).toBe(IP_POLICY.freeConsecutive + 1);
  });

  it('recordSuccess resets account keys but never IP keys', async () => {
    const limiter = new AttemptLimiter(t.deps.database, t.deps.clock);
    const account = { key: `account:unit-${Date.now()}`, policy: ACCOUNT_POLICY };
    const ip = { key: `ip:unit-${Date.now()}`, policy: IP_POLICY };
    await limiter.claim([account, ip]);
    await limiter.claim([account, ip]);
    await limiter.recordSuccess([account, ip]);
    const rows = await t.deps.db
      .selectFrom('attempt_counters')
      .select(['key', 'consecutive', 'failures'])
      .where('key', 'in', [account.key, ip.key])
      .execute();
    const byKey = Object.fromEntries(rows.map((r) => [r.key, r]));
    expect(byKey[account.key]).toMatchObject({ consecutive: 0, failures: 2 });
    expect(byKey[ip.key]).toMatchObject({ consecutive: 2, failures: 2 });
  });

  it('claim counts up front, all or nothing; refund gives a successful attempt back', async () => {
    const limiter = new AttemptLimiter(t.deps.database, t.deps.clock);
    const stamp = Date.now();
    const account = { key: `account:claim-${stamp}`, policy: ACCOUNT_POLICY };
    const ip = { key: `ip:claim-${stamp}`, policy: IP_POLICY };
    const counts = async () =>
      Object.fromEntries(
        (
          await t.deps.db
            .selectFrom('attempt_counters')
            .select(['key', 'failures', 'consecutive', 'blocked_until'])
            .where('key', 'in', [account.key, ip.key])
            .execute()
        ).map((r) => [r.key, r]),
      );
    await limiter.claim([account, ip]);
    expect(await counts()).toMatchObject({
      [account.key]: { failures: 1, consecutive: 1 },
      [ip.key]: { failures: 1, consecutive: 1 },
    });
    await limiter.refund([account, ip]);
    expect(await counts()).toMatchObject({
      [account.key]: { failures: 0, consecutive: 0, blocked_until: null },
      [ip.key]: { failures: 0, consecutive: 0, blocked_until: null },
    });
    // a blocked IP: the claim answers 429 and counts nothing on the account either
    await t.deps.db
      .updateTable('attempt_counters')
      .set({ blocked_until: new Date(t.clock.now().getTime() + 5000) })
      .where('key', '=', ip.key)
      .execute();
    await expect(limiter.claim([account, ip])).rejects.toMatchObject({
      code: 'TooManyRequests',
      headers: { 'retry-after': '5' },
    });
    expect((await counts())[account.key]).toMatchObject({ failures: 0, consecutive: 0 });
  });

  it('refund leaves an address the block its other consecutive failures still earn', async () => {
    const limiter = new AttemptLimiter(t.deps.database, t.deps.clock);
    const stamp = Date.now();
    const account = { key: `account:refund-${stamp}`, policy: ACCOUNT_POLICY };
    const ip = { key: `ip:refund-${stamp}`, policy: IP_POLICY };
    for (let i = 0; i <= IP_POLICY.freeConsecutive; i++) await limiter.claim([ip]); // the last one earns 1 s
    t.clock.advance(1);
    await limiter.claim([account, ip]); // one more: 2 s
    await limiter.refund([account, ip]); // a success: the address is back at the count that earned 1 s
    const rows = await t.deps.db
      .selectFrom('attempt_counters')
      .select(['key', 'failures', 'consecutive', 'blocked_until'])
      .where('key', 'in', [account.key, ip.key])
      .execute();
    const byKey = Object.fromEntries(rows.map((r) => [r.key, r]));
    expect(byKey[account.key]).toEqual({ key: account.key, failures: 0, consecutive: 0, blocked_until: null });
    expect(byKey[ip.key]).toEqual({
      key: ip.key,
      failures: IP_POLICY.freeConsecutive + 1,
      consecutive: IP_POLICY.freeConsecutive + 1,
      blocked_until: new Date(t.clock.now().getTime() + 1000),
    });
  });

  it('restarts the consecutive count with a new hourly window', async () => {
    const limiter = new AttemptLimiter(t.deps.database, t.deps.clock);
    const ip = { key: `ip:window-${Date.now()}`, policy: IP_POLICY };
    for (let i = 0; i < 3; i++) await limiter.claim([ip]);
    t.clock.advance(3600);
    await limiter.claim([ip]);
    const row = await t.deps.db
      .selectFrom('attempt_counters')
      .select(['consecutive', 'failures'])
      .where('key', '=', ip.key)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ consecutive: 1, failures: 1 });
  });
  it('takes parallel claims and refunds of one account and address without a deadlock, counting nothing', async () => {
    // As parallel logins of one person from one address do: each claims both counters, then gives them back.
    // Four at a time, the most the account's free consecutive failures allow without a delay.
    const keys = [
      attemptKey('account', `parallel-${ipCounter}@example.com`, ACCOUNT_POLICY),
      attemptKey('ip', freshIp(), IP_POLICY),
    ];
    const limiter = new AttemptLimiter(t.deps.database, t.deps.clock);
    const rounds = Array.from({ length: 4 }, async () => {
      for (let i = 0; i < 40; i++) {
        await limiter.claim(keys);
        await limiter.refund(keys);
      }
    });
    await expect(Promise.all(rounds)).resolves.toHaveLength(4);
    const counters = await t.deps.db
      .selectFrom('attempt_counters')
      .select(['failures', 'consecutive', 'blocked_until'])
      .where(
        'key',
        'in',
        keys.map((k) => k.key),
      )
      .execute();
    expect(counters).toEqual([
      { failures: 0, consecutive: 0, blocked_until: null },
      { failures: 0, consecutive: 0, blocked_until: null },
    ]);
  });
});
