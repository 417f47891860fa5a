// A body is taken only in the content types its route accepts (platform/body-types.ts): JSON, unless the route's
// schema says `consumes` (the OAuth endpoints and the one-click unsubscribe routes also take forms). Anything else
// is a 415 naming the accepted types, and nothing is written.
import { describe, expect, it } from 'vitest';
import { crmUser } from './helpers/contacts.js';
import { useTestApp } from './helpers/app.js';
import { createClient, createUser } from './helpers/factories.js';
import { passwordLogin } from './helpers/oauth.js';

describe('body content types', () => {
  const t = useTestApp();
  const contactCount = async () =>
    Number(
      (
        await t.deps.db
          .selectFrom('contacts')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('refuses JSON text sent as a form (curl’s default) or as plain text to a JSON route: 415, nothing written', async () => {
    const member = await crmUser(t.deps);
    const before = await contactCount();
    for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'text/plain; charset=utf-8']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/contacts',
        headers: { ...member.headers, 'content-type': type },
        payload: '{"first_name":"Ada"}',
      });
      expect(res.statusCode, `${type}: ${res.body}`).toBe(415);
      expect(res.json()).toEqual({
        http: 415,
        code: 'UnsupportedMediaType',
        message: `This endpoint takes a body of type application/json; ${type.split(';')[0]} is not one of them`,
      });
    }
    expect(await contactCount()).toBe(before);

    const json = await t.app.inject({
      method: 'POST',
      url: '/contacts',
      headers: { ...member.headers, 'content-type': 'application/json; charset=utf-8' },
      payload: '{"first_name":"Ada"}',
    });
    expect(json.statusCode, json.body).toBe(200);
    expect(json.json().data.first_name).toBe('Ada');
  });

  it('keeps form bodies where the route takes them, and a form content type without a body is no body', async () => {
    const client = await createClient(t.deps, 'first_party');
    const user = await createUser(t.deps);
    const form = await passwordLogin(t.app, client, user.email, undefined, { form: true });
    expect(form.statusCode, form.body).toBe(200);

    // Some clients send a Content-Type on every request, a bodiless PATCH included.
    const member = await crmUser(t.deps);
    const seen = await t.app.inject({
      method: 'PATCH',
      url: '/notifications/seen',
      headers: { ...member.bare, 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(seen.statusCode, seen.body).toBe(204);
  });
});
