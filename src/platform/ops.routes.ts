// Operations: liveness + database readiness, Prometheus metrics.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { pingDatabase } from '../db/probes.js';
import type { Deps } from './deps.js';

const Health = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
  database: Type.String(),
});

export const opsRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
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

  app.get('/metrics', { config: { auth: 'none' }, schema: { hide: true } }, async (_request, reply) => {
    reply.type(deps.metrics.registry.contentType);
    return deps.metrics.registry.metrics();
  });
};
