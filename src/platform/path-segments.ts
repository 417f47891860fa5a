// How long a path parameter may be. An id (a uuid, a key, a name) is never longer than 100 characters, so a
// longer one is refused with 414 before anything reads it; but a few routes take a provider's identifier in the
// path (a device token: FCM ~163 characters, APNs up to 400 hex), and those declare their own limit with
// `config.pathParamLimits`. The router's own limit is the longest any route may declare, so it only refuses what
// no route could take; the per-parameter check runs first of the hooks, before authentication, as the router's
// refusal did.
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';

/** The limit of a path parameter that a route does not declare: every id fits. */
export const ID_SEGMENT_MAX = 100;
/** The router's limit (Fastify's `maxParamLength`): the most any route may allow a parameter. */
export const LONGEST_PATH_PARAM = 4096;

export function segmentTooLong(limit: number, name?: string): AppError {
  return new AppError('URITooLong', `A path segment${name ? ` (:${name})` : ''} is longer than ${limit} characters`);
}

export function registerPathSegmentLimits(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    for (const [name, limit] of Object.entries(route.config?.pathParamLimits ?? {}))
      if (limit > LONGEST_PATH_PARAM)
        throw new Error(`${route.url}: :${name} may not be longer than the router's ${LONGEST_PATH_PARAM} characters`);
  });

  // A callback hook, not an async one: it runs on every request and never waits (Fastify passes a throw on).
  app.addHook('onRequest', (request, _reply, done) => {
    const params = request.params as Record<string, string | undefined>;
    const limits = request.routeOptions.config.pathParamLimits;
    for (const name in params) {
      if (name === '*') continue; // the not-found handler's catch-all: the whole path, not a segment
      const limit = limits?.[name] ?? ID_SEGMENT_MAX;
      if ((params[name]?.length ?? 0) > limit) throw segmentTooLong(limit, name);
    }
    done();
  });
}
