// Every authenticated route declares the scope its token needs (decisions §22, platform/api-scopes.ts): a route added
// without one fails here. Public routes (`auth: 'none'`) need no token, so they declare none.
import { describe, expect, it } from 'vitest';
import { useTestApp } from './helpers/app.js';
import { routeTable } from '../src/platform/openapi.js';
import { ALL_SCOPES } from '../src/platform/api-scopes.js';

describe('route scopes', () => {
  const t = useTestApp();

  it('declares a known scope on every authenticated route, and none on public ones', () => {
    const routes = routeTable(t.app).filter((route) => route.method !== 'OPTIONS');
    const missing = routes.filter((route) => route.auth !== 'none' && route.scope === undefined);
    expect(missing.map((route) => `${route.method} ${route.url}`)).toEqual([]);
    const unknown = routes.filter(
      (route) => route.scope !== undefined && route.scope !== 'any' && !ALL_SCOPES.includes(route.scope),
    );
    expect(unknown).toEqual([]);
    const publicWithScope = routes.filter((route) => route.auth === 'none' && route.scope !== undefined);
    expect(publicWithScope).toEqual([]);
    expect(routes.filter((route) => route.auth !== 'none').length).toBeGreaterThan(100);
  });

  it('maps reads and writes, and searches sent as POST, to their scopes', () => {
    const scopeOf = (method: string, url: string) =>
      routeTable(t.app).find((route) => route.method === method && route.url === url)?.scope;
    expect(scopeOf('GET', '/contacts')).toBe('contacts:read');
    expect(scopeOf('HEAD', '/contacts')).toBe('contacts:read');
    expect(scopeOf('POST', '/contacts')).toBe('contacts:write');
    expect(scopeOf('POST', '/deals/filter')).toBe('deals:read');
    expect(scopeOf('POST', '/valerts')).toBe('listings:read');
    expect(scopeOf('POST', '/mls/:mls/listings')).toBe('listings:write');
    expect(scopeOf('POST', '/users/self/mfa/validate')).toBe('any');
    expect(scopeOf('DELETE', '/brands/:brand/users/:user/mfa')).toBe('brands:admin');
    expect(scopeOf('GET', '/oauth2/userinfo')).toBe('any');
    expect(scopeOf('POST', '/oauth2/token')).toBeUndefined();
  });

  it('names the scope in the OpenAPI document and lists every scope in discovery', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(document.paths['/contacts'].post.security).toEqual([{ bearer: ['contacts:write'] }]);
    expect(document.paths['/contacts'].get.security).toEqual([{ bearer: ['contacts:read'] }]);
    const metadata = (await t.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' })).json();
    expect(metadata.scopes_supported).toEqual(ALL_SCOPES);
  });
});
