// The per-IP limit of public routes (decisions §19): at most PUBLIC_RATE_LIMIT requests per client IP per window
// of PUBLIC_RATE_WINDOW_SECONDS (default 100 per 15 minutes), shared by every API process (one upsert per request
// on rate_limit_windows). Answers carry RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset (seconds);
// over the limit → 429 TooManyRequests with Retry-After. A route opts in with `config.rateLimit`:
// 'public' counts every request, 'anonymous' only requests without an Authorization header (a route that serves
// both, like POST /valerts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from './deps.js';
import { errors } from '../errors.js';
import { countRateLimitHit, deleteRateLimitWindowsBefore } from './rate-limit.repository.js';

export type RateLimitRule = 'public' | 'anonymous';

export function registerRateLimit(app: FastifyInstance, deps: Deps): void {
  // A callback hook: most routes have no limit, and they should not pay for a promise on every request.
  app.addHook('onRequest', (request, reply, done) => {
    const rule = request.routeOptions.config.rateLimit;
    if (!rule || (rule === 'anonymous' && request.headers.authorization)) return done();
    countAndRefuse(deps, request, reply).then(() => done(), done);
  });
}

async function countAndRefuse(deps: Deps, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const { limit, hits, resetSeconds } = await countHit(deps, request);
  reply.header('ratelimit-limit', String(limit));
  reply.header('ratelimit-remaining', String(Math.max(0, limit - hits)));
  reply.header('ratelimit-reset', String(resetSeconds));
  if (hits > limit)
    throw errors.tooManyRequests(
      resetSeconds,
      `Too many requests from this address: at most ${limit} every ${deps.config.publicRateWindowSeconds} s`,
    );
}

async function countHit(
  deps: Deps,
  request: FastifyRequest,
): Promise<{ limit: number; hits: number; resetSeconds: number }> {
  const now = deps.clock.now();
  const window = deps.config.publicRateWindowSeconds;
  const key = `public:${request.ip}`;
  // A window that is over starts again at this request.
  const row = await countRateLimitHit(deps.db, key, now, window);
  const resetSeconds = Math.max(1, Math.ceil((row.window_started_at.getTime() + window * 1000 - now.getTime()) / 1000));
  return { limit: deps.config.publicRateLimit, hits: row.hits, resetSeconds };
}

/** Windows that ended a day ago or more (the hourly purge job). */
export async function purgeRateLimitWindows(deps: Pick<Deps, 'db' | 'clock' | 'config'>): Promise<number> {
  const cutoff = new Date(deps.clock.now().getTime() - (deps.config.publicRateWindowSeconds + 24 * 3600) * 1000);
  return deleteRateLimitWindowsBefore(deps.db, cutoff);
}
