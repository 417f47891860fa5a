// CORS for browsers of existing clients (decisions §19): a page served from an origin in CORS_ORIGINS, or from
// https on a brand's host name (white label), may call the API with the headers those clients send, and read the
// headers they need. Preflights are answered without authentication; an origin not allowed gets no CORS headers
// (the browser then refuses), never an error. Tokens travel in Authorization, so no credentials mode.
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { findBrandByHostname } from './hostnames.repository.js';

export const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'X-Rechat-Brand',
  'X-Rechat-Format',
  'X-Auth-Mode',
  'Range',
];
export const CORS_EXPOSED_HEADERS = [
  'X-Request-Id',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Deprecation',
  'Sunset',
  'Link',
  'Retry-After',
];
/** Brand host names change rarely; each process remembers an answer this long (no shared state needed). */
const HOST_CACHE_MS = 60_000;

export async function registerCors(app: FastifyInstance, deps: Deps): Promise<void> {
  const configured = new Set(deps.config.corsOrigins);
  const hostAnswers = new Map<string, { allowed: boolean; until: number }>();

  const isBrandHost = async (hostname: string): Promise<boolean> => {
    const now = Date.now();
    const cached = hostAnswers.get(hostname);
    if (cached && cached.until > now) return cached.allowed;
    const allowed = (await findBrandByHostname(deps.db, hostname)) !== undefined;
    if (hostAnswers.size > 10_000) hostAnswers.clear();
    hostAnswers.set(hostname, { allowed, until: now + HOST_CACHE_MS });
    return allowed;
  };

  await app.register(cors, {
    origin: (origin, callback) => {
      if (!origin) return callback(null, false);
      if (configured.has(origin)) return callback(null, true);
      let url: URL;
      try {
        url = new URL(origin);
      } catch {
        return callback(null, false);
      }
      if (url.protocol !== 'https:' || url.port !== '') return callback(null, false);
      isBrandHost(url.hostname.toLowerCase()).then(
        (allowed) => callback(null, allowed),
        () => callback(null, false), // a database hiccup denies CORS for this request; it never fails it
      );
    },
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: CORS_ALLOWED_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    credentials: false,
    maxAge: 600,
    strictPreflight: false,
  });
}
