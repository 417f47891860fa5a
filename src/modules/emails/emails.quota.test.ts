// email_quota (decisions §15): recipients of a sender's individual campaigns per brand per calendar month of
// due_at in the sender's time zone. Over it → 429 with Retry-After to the next month, and nothing is written.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { startOfNextMonth, monthKey } from '../../lib/zoned-time.js';
import { marketer, postCampaign, to } from '../../../test/helpers/emails.js';

const t = useTestApp();
let m: Awaited<ReturnType<typeof marketer>>;
const ZONE = 'America/Chicago';

beforeAll(async () => {
  m = await marketer(t.deps);
  await t.deps.db.updateTable('users').set({ email_quota: 3, timezone: ZONE }).where('id', '=', m.user).execute();
});

const individual = (addresses: string[], extra: Record<string, unknown> = {}) =>
  postCampaign(t.app, m.headers, { subject: 's', html: 'h', individual: true, to: addresses.map(to), ...extra });
const campaignsInBrand = async () =>
  Number(
    (
      await t.deps.db
        .selectFrom('email_campaigns')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('brand', '=', m.brand)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('email_quota', () => {
  it('counts individual recipients per month in the sender’s zone, answers 429 over it, and frees what a deleted campaign held', async () => {
    const first = await individual(['a@example.com', 'b@example.com']);
    expect(first.statusCode, first.body).toBe(200);
    // One message to everyone is not individual: not counted.
    expect(
      (
        await postCampaign(t.app, m.headers, {
          subject: 's',
          html: 'h',
          to: ['c', 'd', 'e', 'f'].map((x) => to(`${x}@example.com`)),
        })
      ).statusCode,
    ).toBe(200);

    const before = await campaignsInBrand();
    const over = await individual(['c@example.com', 'd@example.com']);
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({
      code: 'TooManyRequests',
      message: 'Maximum marketing email quota per month exceeded.',
    });
    const now = t.clock.now();
    const next = startOfNextMonth(monthKey(now, ZONE), ZONE);
    expect(Number(over.headers['retry-after'])).toBe(Math.ceil((next.getTime() - now.getTime()) / 1000));
    expect(await campaignsInBrand()).toBe(before);

    // Exactly up to the quota is fine; next month (in Chicago) starts from zero.
    expect((await individual(['c@example.com'])).statusCode).toBe(200);
    expect((await individual(['x@example.com'])).statusCode).toBe(429);
    const nextMonth = await individual(['c@example.com', 'd@example.com', 'e@example.com'], {
      due_at: next.getTime() / 1000 + 60,
    });
    expect(nextMonth.statusCode, nextMonth.body).toBe(200);
    // One second before Chicago's next month is still this month, whatever the UTC date says.
    expect((await individual(['y@example.com'], { due_at: next.getTime() / 1000 - 1 })).statusCode).toBe(429);

    // A PATCH that adds recipients is checked too; deleting a campaign gives its recipients back.
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/emails/${first.json().data.id}`,
      headers: m.headers,
      payload: { to: ['a', 'b', 'z'].map((x) => to(`${x}@example.com`)) },
    });
    expect(patched.statusCode).toBe(429);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/emails/${first.json().data.id}`, headers: m.bare })).statusCode,
    ).toBe(204);
    expect((await individual(['c@example.com', 'd@example.com'])).statusCode).toBe(200);
  });
});
