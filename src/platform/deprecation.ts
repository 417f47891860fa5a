// Deprecated endpoints keep working and say so (decisions §13): `Deprecation: @<epoch>` (RFC 9745),
// `Link: <successor>; rel="successor-version"`, and a per-client counter in /metrics.
import type { FastifyInstance } from 'fastify';
import type { Metrics } from './metrics.js';

export interface DeprecationNotice {
  /** ISO date of the published deprecation. */
  date: string;
  /** Path of the replacement endpoint. */
  successor?: string;
}

export function registerDeprecation(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const notice = request.routeOptions.config.deprecated;
    if (!notice) return payload;
    reply.header('deprecation', `@${Math.floor(Date.parse(notice.date) / 1000)}`);
    if (notice.successor) reply.header('link', `<${notice.successor}>; rel="successor-version"`);
    metrics.deprecatedCalls.inc({ route: `${request.method} ${request.routeOptions.url ?? ''}`, client: request.actor?.clientId ?? 'anonymous' });
    return payload;
  });
}
