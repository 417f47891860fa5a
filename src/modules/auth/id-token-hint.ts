// The id_token_hint of RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0 §2): an id_token this server
// signed, which says which client asks and for which user. Its signature and issuer must hold; its age does not
// matter (§4: a hint may have expired by the time the user signs out).
import { compactVerify, createLocalJWKSet } from 'jose';
import type { Deps } from '../../platform/deps.js';
import { SIGNING_ALGS } from './auth.columns.js';
import { publishedJwks } from './signing-keys.js';

export interface IdTokenHint {
  /** The user the id_token was issued for. */
  sub: string;
  /** The client_id(s) it was issued to. */
  aud: string[];
}

/** The hint's subject and audience, or null when it is not an id_token of ours (malformed, forged, key gone). */
export async function readIdTokenHint(deps: Deps, hint: string): Promise<IdTokenHint | null> {
  try {
    const keys = createLocalJWKSet(await publishedJwks(deps));
    const { payload } = await compactVerify(hint, keys, { algorithms: [...SIGNING_ALGS] });
    const claims = JSON.parse(new TextDecoder().decode(payload)) as Record<string, unknown>;
    const aud = typeof claims.aud === 'string' ? [claims.aud] : claims.aud;
    if (claims.iss !== deps.config.baseUrl || typeof claims.sub !== 'string') return null;
    if (!Array.isArray(aud) || !aud.every((value) => typeof value === 'string')) return null;
    return { sub: claims.sub, aud };
  } catch {
    return null; // jose's errors: a bad signature, an unknown kid, a malformed token
  }
}
