// Which scope a login is granted (decisions §22, docs/oauth.md "Scopes"): what the client asked for, checked against
// the scopes its operator lets it ask for. The compatibility rule: a request that names no API scope (none at all,
// as the WordPress plugin sends, or only OpenID Connect's identity scopes) gets the client's default, which is
// `full` for every client whose scopes were never narrowed (all clients registered before scopes existed).
import {
  API_SCOPES,
  IDENTITY_SCOPES,
  isScope,
  scopeAllows,
  scopeWords,
  type Scope,
} from '../../platform/api-scopes.js';

export type ScopeDecision = { granted: string } | { invalid: string };

/** What an operator may store for a client (`gable admin client create|scopes --scopes`): API scopes only. */
export function invalidAllowedScopes(scopes: readonly string[]): string | null {
  const bad = scopes.filter((scope) => !(API_SCOPES as readonly string[]).includes(scope));
  return bad.length === 0 ? null : `not API scopes: ${bad.join(', ')} (one of ${API_SCOPES.join(', ')})`;
}

/**
 * RFC 6749 §3.3 for a new login. `allowed` is the client's oauth_clients.allowed_scopes: null lets it ask for any
 * scope; a list, those API scopes (`full` among them: any). Identity scopes are the user's to consent to, so every
 * client may ask for them.
 */
export function grantScope(allowed: readonly string[] | null, requested: string | null | undefined): ScopeDecision {
  const words = [...scopeWords(requested)];
  const unknown = words.filter((word) => !isScope(word));
  if (unknown.length > 0) return { invalid: `Unknown scope: ${unknown.join(' ')}` };
  const mayAsk = (scope: Scope) =>
    IDENTITY_SCOPES.includes(scope) || allowed === null || allowed.includes('full') || allowed.includes(scope);
  const refused = (words as Scope[]).filter((word) => !mayAsk(word));
  if (refused.length > 0) return { invalid: `This client may not ask for the scope ${refused.join(' ')}` };
  const asksApi = words.some((word) => !IDENTITY_SCOPES.includes(word as Scope));
  const defaults = allowed === null ? ['full'] : allowed;
  return { granted: [...words, ...(asksApi ? [] : defaults)].join(' ') };
}

/**
 * RFC 6749 §6: a refresh may ask for less than its login was granted, never more. `granted` null is a login
 * stored before scopes existed (`full`). Every word must be held by the login: an API scope as a route would be
 * allowed it (`full` holds them all, a `:write` its `:read`), an identity scope by name.
 */
export function narrowScope(granted: string | null, requested: string): ScopeDecision {
  const words = [...scopeWords(requested)];
  const unknown = words.filter((word) => !isScope(word));
  if (unknown.length > 0) return { invalid: `Unknown scope: ${unknown.join(' ')}` };
  if (words.length === 0) return { invalid: 'scope must name at least one scope' };
  const held = scopeWords(granted ?? 'full');
  const holds = (scope: Scope) =>
    IDENTITY_SCOPES.includes(scope) || scope === 'full' ? held.has(scope) : scopeAllows(granted, scope);
  const wider = (words as Scope[]).filter((word) => !holds(word));
  if (wider.length > 0)
    return { invalid: `A refresh cannot widen the login's scope: it was not granted ${wider.join(' ')}` };
  return { granted: words.join(' ') };
}
