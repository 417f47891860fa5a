import { describe, expect, it } from 'vitest';
import { alertPageUrl, alertToken, readAlertToken } from './alert-token.js';

const search = '0b9c2f0e-5d1a-4c3e-9f7a-1b2c3d4e5f60';
const contact = '7d4e8a90-1234-4abc-8def-0123456789ab';
const brand = '11111111-2222-4333-8444-555555555555';
const oldKey = Buffer.alloc(32, 2);
const keys = { secretKey: Buffer.alloc(32, 1), previousSecretKeys: [] };
const now = new Date('2026-11-21T12:00:00Z');
const later = new Date('2026-12-21T12:00:00Z');

describe('alert tokens', () => {
  it('name the pair and the expiry in 71 URL-safe characters', () => {
    const token = alertToken(keys, { search, contact }, later);
    expect(token).toMatch(/^[A-Za-z0-9_-]{71}$/);
    expect(readAlertToken(keys, token, now)).toEqual({ state: 'valid', search, contact, expiresAt: later });
    expect(readAlertToken(keys, token, later)).toMatchObject({ state: 'expired', search, contact });
  });

  it('refuse a changed character, another key, and anything not a token', () => {
    const token = alertToken(keys, { search, contact }, later);
    for (let at = 0; at < token.length; at++) {
      const changed = `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;
      expect(readAlertToken(keys, changed, now).state, `position ${at}`).toBe('invalid');
    }
    // The last character's 2 low bits are spare: its other spellings decode to the same bytes, and are refused too.
    const last = '0123'.split('').map((spare) => {
      const digits = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      const index = (digits.indexOf(token.at(-1)!) & ~3) | Number(spare);
      return `${token.slice(0, -1)}${digits[index]}`;
    });
    expect(new Set(last.map((spelling) => Buffer.from(spelling, 'base64url').toString('hex'))).size).toBe(1);
    expect(last.map((spelling) => readAlertToken(keys, spelling, now).state).sort()).toEqual([
      'invalid',
      'invalid',
      'invalid',
      'valid',
    ]);
    const foreign = { secretKey: Buffer.alloc(32, 9), previousSecretKeys: [] };
    expect(readAlertToken(foreign, token, now).state).toBe('invalid');
    for (const bad of [undefined, 42, '', 'x', `${token}A`, token.slice(1), '!'.repeat(71)])
      expect(readAlertToken(keys, bad, now).state).toBe('invalid');
  });

  it('keep working across a key rotation (checked under SECRET_KEY_PREVIOUS)', () => {
    const before = alertToken({ secretKey: oldKey, previousSecretKeys: [] }, { search, contact }, later);
    expect(readAlertToken({ ...keys, previousSecretKeys: [oldKey] }, before, now).state).toBe('valid');
    expect(readAlertToken(keys, before, now).state).toBe('invalid');
  });

  it('address the results page on WEB_URL, or ALERT_URL with its variables replaced', () => {
    const config = { ...keys, webUrl: 'https://gable.example', alertUrl: null, alertLinkTtlDays: 90 };
    const url = alertPageUrl(config, { search, contact, brand }, now);
    const token = url.slice('https://gable.example/a/'.length);
    expect(readAlertToken(keys, token, now)).toMatchObject({ state: 'valid', search, contact });
    const own = alertPageUrl(
      { ...config, alertUrl: 'https://homes.example/alerts/{search}?c={contact}&b={brand}&t={token}' },
      { search, contact, brand },
      now,
    );
    expect(own).toBe(`https://homes.example/alerts/${search}?c=${contact}&b=${brand}&t=${token}`);
  });
});
