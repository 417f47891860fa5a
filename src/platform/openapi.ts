// OpenAPI 3.1 generated from the route schemas, served at /openapi.json, with a reference page at /docs.
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Config } from '../config.js';

export async function registerOpenApi(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: `${config.appName} API`,
        version: '1',
        description: 'Real-estate platform API: OAuth 2, MFA, brands, listings search, boundaries. See docs/ in the repository.',
      },
      servers: [{ url: config.baseUrl }],
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An access token from POST /oauth2/token' } },
      },
      security: [{ bearer: [] }],
    },
  });
  // The reference page and its assets are public, like the document they render.
  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.config = { ...route.config, auth: 'none' };
    });
    await scope.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });
  });
  app.get('/openapi.json', { config: { auth: 'none' }, schema: { hide: true } }, async () => app.swagger());
}
