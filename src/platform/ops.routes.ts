// Operations: liveness (/health), readiness (/ready), Prometheus metrics.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { pendingMigrations } from '../db/migrator.js';
import { pingDatabase } from '../db/probes.js';
import type { Deps } from './deps.js';

const Health = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
  database: Type.String(),
});

const Readiness = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('unavailable')]),
  database: Type.Union([Type.Literal('ok'), Type.Literal('unreachable')]),
  migrations: Type.Union([Type.Literal('current'), Type.Literal('behind'), Type.Literal('unknown')]),
  shutting_down: Type.Boolean(),
});

export const opsRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  // Once the database has every migration of this code it keeps them (migrations only go forward), so the
  // question is asked until the first yes.
  let migrationsCurrent = false;
  const migrationsState = async (): Promise<'current' | 'behind'> => {
    migrationsCurrent ||= (await pendingMigrations(deps.db)).length === 0;
    return migrationsCurrent ? 'current' : 'behind';
  };

  app.get(
    '/health',
    {
      config: { auth: 'none' },
      schema: {
        tags: ['Operations'],
        summary: 'Liveness and database readiness',
        description:
          'Answers 200 while the database answers a query, 503 (same body, `status: "unavailable"`) while it does not. No token needed.',
        response: { 200: Health, 503: Health },
      },
    },
    async (_request, reply) => {
      try {
        await pingDatabase(deps.db);
        return { status: 'ok' as const, database: 'ok' };
      } catch {
        return reply.status(503).send({ status: 'unavailable' as const, database: 'unreachable' });
      }
    },
  );

  app.get(
    '/ready',
    {
      config: { auth: 'none' },
      schema: {
        tags: ['Operations'],
        summary: 'Readiness: may a balancer send requests here',
        description:
          'Answers 200 while the database answers, has every migration of this version and the process is not ' +
          'shutting down; 503 (same body, `status: "unavailable"`) otherwise, saying which. No token needed. ' +
          '`/health` is the liveness check: it stays 200 while a shutdown drains.',
        response: { 200: Readiness, 503: Readiness },
      },
    },
    async (_request, reply) => {
      let database: 'ok' | 'unreachable' = 'ok';
      let migrations: 'current' | 'behind' | 'unknown' = 'unknown';
      try {
        await pingDatabase(deps.db);
        migrations = await migrationsState();
      } catch {
        database = 'unreachable';
      }
      // Set at the shutdown's signal (server.ts): the server still answers, but a balancer should send no more.
      const shuttingDown = deps.lifecycle.draining;
      const ready = database === 'ok' && migrations === 'current' && !shuttingDown;
      return reply
        .status(ready ? 200 : 503)
        .send({ status: ready ? 'ready' : 'unavailable', database, migrations, shutting_down: shuttingDown });
    },
  );

  app.get('/metrics', { config: { auth: 'none' }, schema: { hide: true } }, async (_request, reply) => {
    reply.type(deps.metrics.registry.contentType);
    return deps.metrics.registry.metrics();
  });
};
