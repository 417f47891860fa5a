// buildApp(deps): the whole HTTP application as a Fastify instance, without listening (tests inject into it).
import type { Config } from './config.js';
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from './platform/deps.js';
import { registerAuth } from './modules/auth/authenticate.js';
import { registerBodyTypes } from './platform/body-types.js';
import { registerOmit } from './platform/associations.js';
import { registerCors } from './modules/brands/cors.js';
import { registerDeprecation } from './platform/deprecation.js';
import { clientError, frameworkError, registerErrorHandling } from './platform/error-handler.js';
import { registerMethods } from './platform/methods.js';
import { registerOpenApi } from './platform/openapi.js';
import { lazySerializerFactory, lazyValidatorCompiler } from './platform/lazy-compile.js';
import { LONGEST_PATH_PARAM, registerPathSegmentLimits } from './platform/path-segments.js';
import { registerRateLimit } from './platform/rate-limit.js';
import { registerTextGuard } from './platform/text-guard.js';
import { opsRoutes } from './platform/ops.routes.js';
import { parseQueryString } from './platform/querystring.js';
import { DEFAULT_BODY_LIMIT_BYTES, ErrorBody } from './platform/schemas.js';
import { createValidatorCompiler } from './platform/validation.js';
import { featureRoutes } from './features.js';
import { runAsWork } from './lib/work-context.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export async function buildApp(deps: Deps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.log,
    bodyLimit: DEFAULT_BODY_LIMIT_BYTES,
    trustProxy: trustProxyOf(deps.config.trustProxy),
    requestIdHeader: false,
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    // Path parameters are limited per route (platform/path-segments.ts); the router only refuses what no route takes.
    routerOptions: {
      querystringParser: parseQueryString,
      ignoreTrailingSlash: true,
      maxParamLength: LONGEST_PATH_PARAM,
    },
    frameworkErrors: frameworkError,
    // While shutting down, a request that comes on a connection still open is answered as usual (with
    // `Connection: close`), not with Fastify's bare 503: the client gets its answer, and the next request goes to
    // another process (server.ts; /ready already says 503 to the balancer).
    return503OnClosing: false,
    clientErrorHandler: clientError,
    // Response serializers compiled at each one's first use (platform/lazy-compile.ts), as the validators are.
    schemaController: { compilersFactory: { buildSerializer: lazySerializerFactory } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(lazyValidatorCompiler(createValidatorCompiler()));

  app.addSchema(ErrorBody);
  // First of the hooks (one, not two: this runs on every request): the request id, and the rest of the request
  // runs as work of its route (slow statements name it).
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    // Shutting down (server.ts): the client (a balancer's kept connection) opens its next request elsewhere.
    if (deps.lifecycle.draining) reply.header('connection', 'close');
    runAsWork({ kind: 'route', name: `${request.method} ${request.routeOptions.url ?? 'unmatched'}` }, done);
  });
  // A callback hook (it never waits): no promise on every response.
  app.addHook('onResponse', (request, reply, done) => {
    deps.metrics.httpDuration.observe(
      { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });

  registerErrorHandling(app);
  registerPathSegmentLimits(app);
  await registerCors(app, deps);
  registerMethods(app);
  registerRateLimit(app, deps);
  registerAuth(app, deps);
  registerOmit(app);
  registerTextGuard(app);
  registerBodyTypes(app);
  registerDeprecation(app, deps.metrics);
  await app.register(formbody, { bodyLimit: DEFAULT_BODY_LIMIT_BYTES });
  await registerOpenApi(app, deps.config);

  await app.register(opsRoutes, { deps });
  // Feature modules: each registers its own routes.
  for (const routes of featureRoutes) await app.register(routes, { deps });

  await app.ready();
  return app;
}

/** TRUST_PROXY as Fastify takes it: a number of proxies becomes "trust the first n hops" (proxy-addr's meaning). */
function trustProxyOf(setting: Config['trustProxy']): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof setting === 'number' ? (_address, hop) => hop < setting : setting;
}
