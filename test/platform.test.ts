// Conventions every route shares: request ids, errors for unknown routes and methods, auth, health, OpenAPI.
import { describe, expect, it } from 'vitest';
import { useTestApp } from './helpers/app.js';

describe('platform', () => {
  const t = useTestApp();

  it('answers /health with database readiness', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'ok' });
  });

  it('answers /ready while the database answers and has every migration of this code', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ready', database: 'ok', migrations: 'current', shutting_down: false });
  });

  it('echoes a sane x-request-id and invents one otherwise', async () => {
    const echoed = await t.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'abc-123' } });
    expect(echoed.headers['x-request-id']).toBe('abc-123');
    const invented = await t.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'bad id\n' } });
    expect(invented.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers unknown routes with ResourceNotFound in the error body', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/no/such/thing' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ http: 404, code: 'ResourceNotFound' });
  });

  it('answers a wrong method on a known path with 405 and Allow', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: '/health' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toContain('GET');
    expect(res.json()).toMatchObject({ http: 405, code: 'MethodNotAllowed' });
  });

  it('serves OpenAPI 3.1 and the reference page', async () => {
    const spec = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(spec.statusCode).toBe(200);
    expect(spec.json().openapi).toBe('3.1.0');
    const docs = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toContain('text/html');
  });

  it('serves Prometheus metrics', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('gable_http_request_duration_seconds');
  });
});

describe('readiness while the database is behind this code', () => {
  const t = useTestApp();

  it('answers /ready 503 with migrations behind until the database catches up', async () => {
    // A database one migration behind, as during a rolling upgrade before `gable migrate` has run.
    const last = await t.deps.db
      .selectFrom('schema_migrations')
      .selectAll()
      .orderBy('name', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    await t.deps.db.deleteFrom('schema_migrations').where('name', '=', last.name).execute();
    const behind = await t.app.inject({ method: 'GET', url: '/ready' });
    expect(behind.statusCode).toBe(503);
    expect(behind.json()).toEqual({
      status: 'unavailable',
      database: 'ok',
      migrations: 'behind',
      shutting_down: false,
    });
    await t.deps.db.insertInto('schema_migrations').values(last).execute();
    const caughtUp = await t.app.inject({ method: 'GET', url: '/ready' });
    expect(caughtUp.statusCode).toBe(200);
    // Liveness does not depend on migrations.
    expect((await t.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  });
});
