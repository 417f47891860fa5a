// The demo brokerage's logos (its marketing palette points here), so that a newcomer's server shows a complete
// brand with nothing else installed. Four small SVGs; public, cacheable, not part of the API document.
import { Type } from '@sinclair/typebox';
import { errors } from '../../errors.js';
import type { FeatureRoutes } from '../../platform/feature.js';

const BLUE = '#0b5cad';
const wide = (fill: string, text: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="120" viewBox="0 0 480 120"><rect width="480" height="120" rx="12" fill="${fill}"/>` +
  `<path d="M40 78 L80 42 L120 78 Z M52 78 V100 H108 V78" fill="none" stroke="${text}" stroke-width="7" stroke-linejoin="round"/>` +
  `<text x="146" y="76" font-family="Georgia, serif" font-size="44" fill="${text}">Demo Realty</text></svg>`;
const square = (fill: string, text: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="240" viewBox="0 0 240 240"><rect width="240" height="240" rx="24" fill="${fill}"/>` +
  `<path d="M60 130 L120 72 L180 130 Z M78 130 V176 H162 V130" fill="none" stroke="${text}" stroke-width="10" stroke-linejoin="round"/>` +
  `<text x="120" y="218" text-anchor="middle" font-family="Georgia, serif" font-size="30" fill="${text}">DR</text></svg>`;

/** Exported for the renderer, which answers a page’s requests for them in-process (deps.ts DRAWN_FILES). */
export const DEMO_LOGOS: Record<string, string> = {
  wide: wide('#ffffff', BLUE),
  square: square('#ffffff', BLUE),
  'inverted-wide': wide(BLUE, '#ffffff'),
  'inverted-square': square(BLUE, '#ffffff'),
};

export const demoLogoRoutes: FeatureRoutes = async (app) => {
  app.get(
    '/demo/logos/:name',
    {
      config: { auth: 'none' },
      schema: { hide: true, params: Type.Object({ name: Type.String({ maxLength: 40, pattern: '^[a-z-]+\\.svg$' }) }) },
    },
    async (request, reply) => {
      const svg = DEMO_LOGOS[request.params.name.replace(/\.svg$/, '')];
      if (!svg) throw errors.notFound('Logo');
      return reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(svg);
    },
  );
};
