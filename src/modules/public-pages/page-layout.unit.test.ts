import { describe, expect, it } from 'vitest';
import { displayPhone } from './page-layout.js';

describe('displayPhone (the brand line of the public pages)', () => {
  it('groups a North American number stored in E.164', () => {
    expect(displayPhone('+12145550100')).toBe('+1 214-555-0100');
  });
  it('shows any other text as the brand wrote it', () => {
    expect(displayPhone('+1 214 555 0100')).toBe('+1 214 555 0100');
    expect(displayPhone('+442071234567')).toBe('+442071234567');
    expect(displayPhone('(214) 555-0100')).toBe('(214) 555-0100');
  });
});
