import { describe, expect, it } from 'vitest';
import { isUuid, uuidV7 } from './uuid.js';

describe('uuidV7', () => {
  it('is a version-7 uuid (RFC 9562) whose first 48 bits are the Unix milliseconds', () => {
    const at = Date.UTC(2026, 10, 24, 19, 30, 0, 123);
    const id = uuidV7(at);
    expect(isUuid(id)).toBe(true);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(at);
  });

  it('orders by time across milliseconds and never repeats', () => {
    const earlier = Array.from({ length: 1000 }, () => uuidV7(1_000));
    const later = Array.from({ length: 1000 }, () => uuidV7(1_001));
    expect(new Set([...earlier, ...later]).size).toBe(2000);
    expect(earlier.every((id) => later.every((other) => id < other))).toBe(true);
  });
});
