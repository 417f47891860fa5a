import { describe, expect, it } from 'vitest';
import { byteSize } from './byte-size.js';

describe('byteSize', () => {
  it.each([
    [1024 * 1024, '1 MiB'],
    [8 * 1024 * 1024, '8 MiB'],
    [64 * 1024, '64 KiB'],
    [1.5 * 1024 * 1024, '1.5 MiB'],
    [512, '512 bytes'],
  ])('%i bytes → %s', (bytes, text) => {
    expect(byteSize(bytes)).toBe(text);
  });
});
