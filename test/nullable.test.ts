// Bodies are validated without coercion (null stays null, "3" is not a number); query strings are coerced.
import Fastify from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Nullable } from '../src/platform/schemas.js';
import { createValidatorCompiler } from '../src/platform/validation.js';

function echoApp() {
  const app = Fastify().withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(createValidatorCompiler());
  const Body = Type.Object({
    text: Nullable(Type.String()),
    count: Nullable(Type.Number()),
    flag: Nullable(Type.Boolean()),
  });
  app.post(
    '/echo',
    {
      schema: {
        body: Body,
        querystring: Type.Object({
          limit: Type.Integer({ default: 50 }),
          ids: Type.Optional(Type.Array(Type.String())),
        }),
      },
    },
    async (request) => ({
      body: request.body,
      query: request.query,
    }),
  );
  return app;
}

describe('request validation', () => {
  it('keeps JSON null, false and 0 as they are in bodies', async () => {
    const app = echoApp();
    const nulls = await app.inject({ method: 'POST', url: '/echo', payload: { text: null, count: null, flag: null } });
    expect(nulls.json().body).toEqual({ text: null, count: null, flag: null });
    const values = await app.inject({ method: 'POST', url: '/echo', payload: { text: 'x', count: 0, flag: false } });
    expect(values.json().body).toEqual({ text: 'x', count: 0, flag: false });
  });

  it('refuses wrong types in bodies instead of coercing them', async () => {
    const res = await echoApp().inject({
      method: 'POST',
      url: '/echo',
      payload: { text: 'x', count: '3', flag: 'true' },
    });
    expect(res.statusCode).toBe(400);
  });

  it('coerces query strings: numbers, defaults, single values to arrays', async () => {
    const res = await echoApp().inject({
      method: 'POST',
      url: '/echo?limit=20&ids=a',
      payload: { text: null, count: null, flag: null },
    });
    expect(res.json().query).toEqual({ limit: 20, ids: ['a'] });
    const defaults = await echoApp().inject({
      method: 'POST',
      url: '/echo',
      payload: { text: null, count: null, flag: null },
    });
    expect(defaults.json().query).toEqual({ limit: 50 });
  });
});
