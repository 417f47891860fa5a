// The `state` of the link flow (decisions §12): `user::brand::redirect::signature`. The signature part is
// `<nonce>.<expires epoch>.<HMAC-SHA256 hex>` over everything before it, keyed by a subkey of SECRET_KEY, so a
// forged or altered state (another user, another brand, another redirect) is refused. The nonce is consumed by
// the callback (extmail_link_states), so a state is good once; it also derives the PKCE verifier, so nothing is
// stored when the link is made. A state is signed under SECRET_KEY and checked under it and each previous key; its
// PKCE verifier comes from the key that signed it, so a link started before a rotation of SECRET_KEY completes.
import { createHmac } from 'node:crypto';
import { deriveKey, randomToken, safeEqual, sha256Base64Url } from '../../lib/crypto.js';

/** How long a link may wait for the user to sign in at the provider. */
export const STATE_SECONDS = 30 * 60;
const SEP = '::';

export interface LinkState {
  user: string;
  brand: string;
  redirect: string;
  nonce: string;
  expiresAt: Date;
  /** The PKCE verifier of this state's nonce, under the key that signed the state. */
  codeVerifier: string;
}

export type StateProblem = 'malformed' | 'forged' | 'expired';

export class StateSigner {
  /** The subkeys of SECRET_KEY, then of each previous key: the first signs, any verifies. */
  private readonly keys: readonly { state: Buffer; pkce: Buffer }[];

  constructor(master: Buffer, previous: readonly Buffer[] = []) {
    this.keys = [master, ...previous].map((key) => ({
      state: deriveKey(key, 'extmail-state'),
      pkce: deriveKey(key, 'extmail-pkce'),
    }));
  }

  sign(fields: { user: string; brand: string; redirect: string }, now: Date): { state: string; nonce: string } {
    const nonce = randomToken(18);
    const expires = Math.floor(now.getTime() / 1000) + STATE_SECONDS;
    const signed = `${fields.user}${SEP}${fields.brand}${SEP}${fields.redirect}${SEP}${nonce}.${expires}`;
    return { state: `${signed}.${this.mac(signed)}`, nonce };
  }

  /** The state's fields, or the reason it is refused. The redirect may itself contain `::` (IPv6). */
  verify(state: string, now: Date): LinkState | StateProblem {
    const first = state.indexOf(SEP);
    const second = first < 0 ? -1 : state.indexOf(SEP, first + SEP.length);
    const last = state.lastIndexOf(SEP);
    if (first < 0 || second < 0 || last <= second) return 'malformed';
    const tail = state.slice(last + SEP.length).split('.');
    if (tail.length !== 3) return 'malformed';
    const [nonce, expires, mac] = tail as [string, string, string];
    const signed = state.slice(0, state.length - mac.length - 1);
    const key = this.keys.find((candidate) => safeEqual(mac, this.mac(signed, candidate.state)));
    if (!key) return 'forged';
    if (!/^\d{1,12}$/.test(expires) || Number(expires) * 1000 <= now.getTime()) return 'expired';
    return {
      user: state.slice(0, first),
      brand: state.slice(first + SEP.length, second),
      redirect: state.slice(second + SEP.length, last),
      nonce,
      expiresAt: new Date(Number(expires) * 1000),
      codeVerifier: this.codeVerifier(nonce, key.pkce),
    };
  }

  /** PKCE (RFC 7636): the verifier is derived from the nonce, the challenge is its S256. */
  codeVerifier(nonce: string, pkceKey = this.keys[0]!.pkce): string {
    return createHmac('sha256', pkceKey).update(nonce).digest('base64url');
  }

  codeChallenge(nonce: string): string {
    return sha256Base64Url(this.codeVerifier(nonce));
  }

  private mac(text: string, stateKey = this.keys[0]!.state): string {
    return createHmac('sha256', stateKey).update(text).digest('hex');
  }
}
