// The demo listings' photos (demo-photos.ts): public, cacheable, not part of the API document, like the demo logos.
import { Type } from '@sinclair/typebox';
import { errors } from '../../errors.js';
import type { FeatureRoutes } from '../../platform/feature.js';
import { DEMO_PHOTOS } from './demo-photos.js';

export const demoPhotoRoutes: FeatureRoutes = async (app) => {
  app.get(
    '/demo/photos/:name',
    {
      config: { auth: 'none' },
      schema: {
        hide: true,
        params: Type.Object({ name: Type.String({ maxLength: 40, pattern: '^[a-z0-9-]+\\.svg$' }) }),
      },
    },
    async (request, reply) => {
      const svg = DEMO_PHOTOS[request.params.name.replace(/\.svg$/, '')];
      if (!svg) throw errors.notFound('Photo');
      return reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(svg);
    },
  );
};
