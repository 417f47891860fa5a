// Issue 34 row 9: a method a path does not take answers 405 with an `Allow` that lists exactly the methods the path
// takes (platform/methods.ts), whatever the method (QUERY, PROPFIND) and whatever body came with it; an unknown
// path stays 404. The route fuzzer (test/fuzz/route-fuzzer.test.ts) checks the same on every documented path.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from './helpers/app.js';
import { bearer, createUser, tokenFor } from './helpers/factories.js';

describe('methods a path does not take', () => {
  const t = useTestApp();
  let user: Record<string, string>;
  beforeAll(async () => {
    user = bearer(await tokenFor(t.deps, (await createUser(t.deps)).id));
  });
  const send = (method: string, url: string, body?: string) =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers: { ...user, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: body }),
    });

  it('answers an unknown method with 405 and Allow before reading the body (no 400 about JSON)', async () => {
    for (const body of [undefined, '{', '{"a":1}']) {
      for (const method of ['QUERY', 'PROPFIND']) {
        const res = await send(method, '/users/self/mfa/setup', body);
        expect(res.statusCode, `${method} with ${String(body)}: ${res.body}`).toBe(405);
        expect(res.headers.allow).toBe('POST');
        expect(res.json()).toEqual({
          http: 405,
          code: 'MethodNotAllowed',
          message: `${method} is not allowed on /users/self/mfa/setup`,
        });
      }
    }
    const self = await send('QUERY', '/users/self', '{');
    expect(self.statusCode).toBe(405);
    expect(self.headers.allow).toBe('GET, HEAD, PUT, PATCH');
  });

  it('lists only the methods the path answers: GET on a static path is not its parametric sibling’s GET', async () => {
    for (const method of ['GET', 'HEAD', 'PUT', 'PATCH']) {
      const res = await send(method, '/notifications/tokens');
      expect(res.statusCode, `${method} /notifications/tokens`).toBe(405);
      expect(res.headers.allow, `${method} /notifications/tokens`).toBe('POST');
    }
    const tags = await send('PATCH', '/contacts/tags', '{}');
    expect(tags.statusCode).toBe(405);
    expect(tags.headers.allow).toBe('GET, HEAD');
    // The parametric route still has its own paths.
    const one = await send('GET', '/notifications/00000000-0000-4000-8000-000000000001');
    expect(one.statusCode).toBe(404);
    expect(one.json()).toMatchObject({ code: 'ResourceNotFound', message: 'Notification not found' });
  });

  it('keeps 404 for a path no route has, whatever the method and body', async () => {
    for (const method of ['QUERY', 'PUT', 'GET']) {
      const res = await send(method, '/no/such/path', method === 'GET' ? undefined : '{');
      expect(res.statusCode, method).toBe(404);
      expect(res.headers.allow).toBeUndefined();
      expect(res.json()).toEqual({
        http: 404,
        code: 'ResourceNotFound',
        message: `No endpoint ${method} /no/such/path`,
      });
    }
  });
});
