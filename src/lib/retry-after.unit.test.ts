import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from './retry-after.js';

describe('parseRetryAfter', () => {
  const now = new Date('2026-11-28T12:00:00Z');

  it('reads delta seconds and HTTP dates', () => {
    expect(parseRetryAfter('120', now)).toBe(120);
    expect(parseRetryAfter(' 7 ', now)).toBe(7);
    expect(parseRetryAfter('Sat, 28 Nov 2026 13:00:00 GMT', now)).toBe(3600);
    expect(parseRetryAfter(['30', '60'], now)).toBe(30);
  });

  it('bounds what it reads to 1 s – 24 h', () => {
    expect(parseRetryAfter('0', now)).toBe(1);
    expect(parseRetryAfter('Sat, 28 Nov 2026 11:00:00 GMT', now)).toBe(1);
    expect(parseRetryAfter('99999999', now)).toBe(24 * 3600);
  });

  it('answers null when there is nothing to read', () => {
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter('', now)).toBeNull();
    expect(parseRetryAfter('garbage', now)).toBeNull();
    expect(parseRetryAfter([], now)).toBeNull();
  });
});
