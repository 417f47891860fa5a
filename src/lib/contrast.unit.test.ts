import { describe, expect, it } from 'vitest';
import {
  blackOrWhiteOn,
  contrastRatio,
  legibleTextColor,
  mixColors,
  parseHexColor,
  relativeLuminance,
} from './contrast.js';

describe('contrast (WCAG 2.x)', () => {
  it('reads the hex forms a palette allows, alpha ignored', () => {
    expect(parseHexColor('#fff')).toEqual([255, 255, 255]);
    expect(parseHexColor('#0b5cad')).toEqual([11, 92, 173]);
    expect(parseHexColor('#0b5cad80')).toEqual([11, 92, 173]);
    expect(parseHexColor('#abcd')).toEqual([170, 187, 204]);
    expect(parseHexColor('red')).toBeNull();
    expect(parseHexColor('#12345')).toBeNull();
  });

  it('computes luminance and the ratios of the WCAG examples', () => {
    expect(relativeLuminance([0, 0, 0])).toBe(0);
    expect(relativeLuminance([255, 255, 255])).toBeCloseTo(1, 10);
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBeCloseTo(1, 5);
    // #767676 on white is the classic lightest grey that passes AA (4.54:1); #777777 fails (4.48:1).
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
    expect(contrastRatio('#ffffff', '#767676')).toBe(contrastRatio('#767676', '#ffffff'));
    expect(contrastRatio('blue', '#ffffff')).toBeNull();
  });

  it('keeps a colour that passes AA and falls back to black or white otherwise', () => {
    expect(legibleTextColor('#767676', '#ffffff')).toBe('#767676');
    expect(legibleTextColor('#777777', '#ffffff')).toBe('#000000');
    expect(legibleTextColor('#ffff00', '#ffffff')).toBe('#000000');
    expect(legibleTextColor('#333333', '#111111')).toBe('#ffffff');
    expect(legibleTextColor(undefined, '#0b5cad')).toBe('#ffffff');
    expect(legibleTextColor('not a colour', '#fafafa')).toBe('#000000');
    // The demo palette's white on #0b5cad passes (≈ 6.6:1).
    expect(legibleTextColor('#ffffff', '#0b5cad')).toBe('#ffffff');
  });

  it('picks the better of black and white', () => {
    expect(blackOrWhiteOn('#ffffff')).toBe('#000000');
    expect(blackOrWhiteOn('#000000')).toBe('#ffffff');
    expect(blackOrWhiteOn('#ffcc00')).toBe('#000000');
    expect(blackOrWhiteOn('#1a237e')).toBe('#ffffff');
  });

  it('mixes two colours', () => {
    expect(mixColors('#000000', '#ffffff', 0.5)).toBe('#808080');
    expect(mixColors('#1f2933', '#ffffff', 1)).toBe('#1f2933');
    expect(mixColors('#1f2933', '#ffffff', 0)).toBe('#ffffff');
  });
});
