// Deprecated endpoints keep working and say so (decisions §13): `Deprecation: @<epoch>` (RFC 9745),
// `Link: <successor>; rel="successor-version"`, and a per-client counter in /metrics.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Metrics } from './metrics.js';

export interface DeprecationNotice {
  /** ISO date of the published deprecation. */
  date: string;
  /** Path of the replacement endpoint. */
  successor?: string;
}

export function registerDeprecation(app: FastifyInstance, metrics: Metrics): void {
  // A callback hook (it never waits): no promise on every response.
  app.addHook('onSend', (request, reply, payload, done) => {
    const notice = request.routeOptions.config.deprecated;
    if (notice) announceDeprecation(request, reply, metrics, notice);
    done(null, payload);
  });
}

/**
 * The headers and the count of one deprecated use. Routes whose deprecation depends on the request (a deprecated
 * value of a live endpoint, e.g. the `Activities` webhook topic) call it themselves; `what` names that use.
 */
export function announceDeprecation(
  request: FastifyRequest,
  reply: FastifyReply,
  metrics: Metrics,
  notice: DeprecationNotice,
  what = '',
): void {
  reply.header('deprecation', `@${Math.floor(Date.parse(notice.date) / 1000)}`);
  if (notice.successor) reply.header('link', `<${notice.successor}>; rel="successor-version"`);
  const route = `${request.method} ${request.routeOptions.url ?? ''}${what ? ` ${what}` : ''}`;
  metrics.deprecatedCalls.inc({ route, client: request.actor?.clientId ?? 'anonymous' });
}
