// Every JSON or form body is checked, after validation, for text PostgreSQL cannot store (lib/storable-text.ts):
// a 400 naming the field, before any statement runs, instead of a 500 from jsonb or a silently altered string.
// A route that reports bad records one by one (listing ingest) opts out with `config.textCheck: 'per-record'`
// and checks each record itself.
import type { FastifyInstance } from 'fastify';
import { errors } from '../errors.js';
import { findUnstorableText } from '../lib/storable-text.js';

export function registerTextGuard(app: FastifyInstance): void {
  // A callback hook (it never waits): a request without a body costs no promise. Fastify passes a throw on.
  app.addHook('preHandler', (request, _reply, done) => {
    if (request.body !== undefined && request.body !== null && request.routeOptions.config.textCheck !== 'per-record') {
      const found = findUnstorableText(request.body);
      if (found) throw errors.invalidField(found.path || 'body', found.message);
    }
    done();
  });
}
