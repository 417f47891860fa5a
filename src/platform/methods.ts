// Which methods a path takes, for 405 and its `Allow` (RFC 9110 §15.5.6). The router keeps one tree per method,
// so a method a static path lacks falls through to a parametric sibling (`GET /notifications/tokens` would be
// `GET /notifications/:id` with id "tokens"), and a method no route has (QUERY, PROPFIND) reaches the not-found
// route, whose body Fastify parses first (a 400 about JSON). Here a path belongs to its most specific route
// pattern over all methods, as a reader of the route list would say; another method there is refused with 405
// in an onRequest hook, before any body is read. `Allow` lists that pattern's methods, HEAD with GET (Fastify
// answers it). OPTIONS is not listed: it is answered only as a CORS preflight (modules/brands/cors.ts); a plain
// OPTIONS answers 405 like any other method the path does not take.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** A segment's rank when two patterns match one path: a static segment beats a parameter, which beats `*`. */
const Rank = { Wildcard: 0, Param: 1, Static: 2 } as const;
type Rank = (typeof Rank)[keyof typeof Rank];

interface PathPattern {
  /** The pattern with its parameters unnamed: `/brands/:brand` and `/brands/:id` are one path. */
  shape: string;
  segments: { rank: Rank; text: string }[];
  regex: RegExp;
  methods: Set<string>;
}

const trimSlash = (path: string) => (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);

function parse(url: string): Omit<PathPattern, 'methods'> {
  const segments = trimSlash(url)
    .split('/')
    .map((text) =>
      text.startsWith(':')
        ? { rank: Rank.Param, text: ':' }
        : text === '*'
          ? { rank: Rank.Wildcard, text }
          : { rank: Rank.Static, text },
    );
  const source = segments
    .map((s) =>
      s.rank === Rank.Param ? '[^/]+' : s.rank === Rank.Wildcard ? '.*' : s.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  return { shape: segments.map((s) => s.text).join('/'), segments, regex: new RegExp(`^${source}/?$`) };
}

/** Positive when `a` is the more specific of two patterns that match the same path (the router's own order). */
function compare(a: PathPattern, b: PathPattern): number {
  for (let i = 0; i < Math.min(a.segments.length, b.segments.length); i++) {
    const diff = a.segments[i]!.rank - b.segments[i]!.rank;
    if (diff !== 0) return diff;
  }
  return a.segments.length - b.segments.length;
}

/** Whether some concrete path matches both patterns. */
function overlap(a: PathPattern, b: PathPattern): boolean {
  for (let i = 0; i < Math.max(a.segments.length, b.segments.length); i++) {
    const x = a.segments[i];
    const y = b.segments[i];
    if (x?.rank === Rank.Wildcard || y?.rank === Rank.Wildcard) return true;
    if (!x || !y) return false;
    if (x.rank === Rank.Static && y.rank === Rank.Static && x.text !== y.text) return false;
  }
  return true;
}

/**
 * Registered after CORS (so a refusal carries its CORS headers) and before rate limits and authentication (a
 * method the path does not take is refused whoever asks); before any route, so that it sees them all.
 */
export function registerMethods(app: FastifyInstance): void {
  const patterns = new Map<string, PathPattern>();
  app.addHook('onRoute', (route) => {
    const parsed = parse(route.url);
    const pattern = patterns.get(parsed.shape) ?? { ...parsed, methods: new Set<string>() };
    patterns.set(parsed.shape, pattern);
    // The CORS preflight route (`OPTIONS *`) takes every path; it says nothing about which methods a path has.
    for (const method of [route.method].flat()) if (method !== 'OPTIONS') pattern.methods.add(method);
    if (pattern.methods.has('GET')) pattern.methods.add('HEAD');
  });

  // Per matched route URL: its pattern, and the more specific patterns that can take one of its paths (most
  // routes have none, and then the hook costs one map look-up).
  const matchedRoutes = new Map<string, { own: PathPattern | undefined; shadows: PathPattern[] }>();
  const routeOf = (url: string) => {
    let found = matchedRoutes.get(url);
    if (!found) {
      const own = patterns.get(parse(url).shape);
      const shadows = own
        ? [...patterns.values()].filter((p) => p !== own && overlap(p, own) && compare(p, own) > 0)
        : [];
      found = { own, shadows };
      matchedRoutes.set(url, found);
    }
    return found;
  };
  const bestOf = (candidates: Iterable<PathPattern>, path: string): PathPattern | undefined => {
    let best: PathPattern | undefined;
    for (const pattern of candidates)
      if (pattern.methods.size > 0 && pattern.regex.test(path) && (!best || compare(pattern, best) > 0)) best = pattern;
    return best;
  };

  const patternOf = (path: string) => bestOf(patterns.values(), path);
  const refusal = (method: string, path: string, pattern: PathPattern) => {
    const allow = METHOD_ORDER.filter((m) => pattern.methods.has(m)).join(', ');
    return new AppError('MethodNotAllowed', `${method} is not allowed on ${path}`, undefined, { allow });
  };

  // A callback hook (it never waits): no promise on every request. Fastify passes a throw on as an error.
  app.addHook('onRequest', (request: FastifyRequest, _reply, done) => {
    checkMethod(request);
    done();
  });
  const checkMethod = (request: FastifyRequest): void => {
    // Every OPTIONS reaches the CORS route; one that is no preflight comes back to the not-found handler.
    if (request.method === 'OPTIONS') return;
    const matched = request.is404 ? undefined : request.routeOptions.url;
    const route = matched === undefined ? undefined : routeOf(matched);
    if (route?.shadows.length === 0) return;
    const path = trimSlash(request.url.split('?', 1)[0] ?? '/');
    // A matched route: only its own pattern and the ones that may shadow it can own the path.
    const pattern = route ? bestOf([route.own!, ...route.shadows], path) : patternOf(path);
    if (pattern && !pattern.methods.has(request.method)) throw refusal(request.method, path, pattern);
    // An unknown path is refused here too, not after its body was parsed.
    if (!route && !pattern) throw notFound(request.method, path);
  };

  // What reaches it despite the hook: a plain OPTIONS, handed back by the CORS route.
  app.setNotFoundHandler(async (request) => {
    const path = trimSlash(request.url.split('?', 1)[0] ?? '/');
    const pattern = patternOf(path);
    throw pattern && !pattern.methods.has(request.method)
      ? refusal(request.method, path, pattern)
      : notFound(request.method, path);
  });
}

const notFound = (method: string, path: string) => new AppError('ResourceNotFound', `No endpoint ${method} ${path}`);
