// The signed link state and the Microsoft settings, without a server.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.js';
import { StateSigner, STATE_SECONDS } from './state.js';
import { grantedScopes, scopeSummary } from './scopes.js';

const signer = new StateSigner(Buffer.alloc(32, 7));
const now = new Date('2026-11-24T12:00:00Z');
const fields = {
  user: '6f1c2d9e-1111-4a4a-9b9b-000000000001',
  brand: '6f1c2d9e-2222-4a4a-9b9b-000000000002',
  redirect: 'http://[::1]:8080/back?a=b::c',
};

describe('StateSigner', () => {
  it('round-trips a redirect that itself contains ::, until it expires', () => {
    const { state, nonce } = signer.sign(fields, now);
    expect(signer.verify(state, now)).toEqual({
      ...fields,
      nonce,
      expiresAt: new Date(now.getTime() + STATE_SECONDS * 1000),
      codeVerifier: signer.codeVerifier(nonce),
    });
    expect(signer.verify(state, new Date(now.getTime() + STATE_SECONDS * 1000))).toBe('expired');
  });

  it('refuses a state signed with another key or altered anywhere', () => {
    const { state } = signer.sign(fields, now);
    expect(new StateSigner(Buffer.alloc(32, 8)).verify(state, now)).toBe('forged');
    expect(signer.verify(state.replace('/back', '/evil'), now)).toBe('forged');
    expect(
      signer.verify(
        state.replace(/\.(\d+)\./, (_m, e: string) => `.${Number(e) + 1000}.`),
        now,
      ),
    ).toBe('forged');
    expect(signer.verify('a::b', now)).toBe('malformed');
  });

  it('verifies a state signed before a rotation, with the verifier of the key that signed it', () => {
    const { state, nonce } = signer.sign(fields, now);
    const rotated = new StateSigner(Buffer.alloc(32, 9), [Buffer.alloc(32, 7)]);
    const verified = rotated.verify(state, now);
    expect(verified).toMatchObject({ ...fields, nonce, codeVerifier: signer.codeVerifier(nonce) });
    expect(rotated.codeVerifier(nonce)).not.toBe(signer.codeVerifier(nonce));
    expect(rotated.verify(rotated.sign(fields, now).state, now)).toMatchObject(fields);
    expect(new StateSigner(Buffer.alloc(32, 9)).verify(state, now)).toBe('forged');
  });

  it('derives a 43-character PKCE verifier per nonce', () => {
    expect(signer.codeVerifier('n1')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(signer.codeVerifier('n1')).not.toBe(signer.codeVerifier('n2'));
    expect(signer.codeChallenge('n1')).not.toBe(signer.codeVerifier('n1'));
  });
});

describe('scopes', () => {
  it('maps granted Graph permissions to the spec names and their summary', () => {
    const scope = grantedScopes(
      'openid profile https://graph.microsoft.com/Mail.Send https://graph.microsoft.com/Contacts.Read User.Read Mail.ReadWrite Calendars.Read',
    );
    expect(scope).toEqual(['Calendar', 'Contacts.Read', 'Mail.ReadWrite', 'Mail.Send']);
    expect(scopeSummary(scope)).toEqual(['profile', 'calendar', 'contacts.read', 'mail.modify', 'mail.send']);
  });
});

describe('Microsoft settings', () => {
  const base = { SECRET_KEY: '0f'.repeat(32), DATA_DIR: '/tmp/gable-extmail-config' };
  it('defaults to the public cloud and the common tenant', () => {
    const config = loadConfig(base);
    expect(config).toMatchObject({
      microsoftClientId: null,
      microsoftTenant: 'common',
      microsoftLoginUrl: 'https://login.microsoftonline.com',
      microsoftGraphUrl: 'https://graph.microsoft.com/v1.0',
    });
  });
  it('refuses a bad tenant or base URL', () => {
    expect(() => loadConfig({ ...base, MICROSOFT_TENANT: 'a/b' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, MICROSOFT_GRAPH_URL: 'ftp://x' })).toThrow(/MICROSOFT_GRAPH_URL/);
  });
});
