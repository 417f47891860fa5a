import { describe, expect, it } from 'vitest';
import { contrastRatio } from '../../lib/contrast.js';
import { localeOf, themeOf } from './theme.js';

const brand = (palette: Record<string, unknown>) => ({ id: 'b1', name: 'Acme Realty', palette });

describe('public page theme', () => {
  it('is neutral without a brand', () => {
    const theme = themeOf(null);
    expect(theme.brand).toBeNull();
    expect(theme.logoUrl).toBeNull();
    expect(theme.locale).toBe('en-US');
    expect(theme.colors.background).toBe('#ffffff');
  });

  it('takes the palette’s colours, logo, locale, zone and contact line', () => {
    const theme = themeOf(
      brand({
        'body-bg-color': '#fdfaf3',
        'body-text-color': '#222222',
        'button-bg-color': '#0b5cad',
        'button-text-color': '#ffffff',
        'container-logo-square': 'https://cdn.example/square.png',
        locale: 'en-gb',
        'time-zone': 'Europe/London',
        address: { full: '1 High St, London' },
        phone_number: '+44 20 7946 0000',
      }),
    );
    expect(theme.brand).toEqual({ id: 'b1', name: 'Acme Realty' });
    expect(theme.colors).toMatchObject({
      background: '#fdfaf3',
      text: '#222222',
      accent: '#0b5cad',
      accentText: '#ffffff',
      link: '#0b5cad',
    });
    expect(theme.logoUrl).toBe('https://cdn.example/square.png');
    expect(theme.locale).toBe('en-GB');
    expect(theme.timeZone).toBe('Europe/London');
    expect(theme.contact).toEqual({ address: '1 High St, London', phone: '+44 20 7946 0000' });
  });

  it('replaces every text colour that fails AA on its background by black or white', () => {
    const theme = themeOf(
      brand({
        'body-bg-color': '#1b1b1b',
        'body-text-color': '#333333', // dark on dark
        'button-bg-color': '#ffd400',
        'button-text-color': '#ffffff', // white on yellow
      }),
    );
    expect(theme.colors.text).toBe('#ffffff');
    expect(theme.colors.accentText).toBe('#000000');
    // Yellow reads on near-black: kept as the link colour.
    expect(theme.colors.link).toBe('#ffd400');
    for (const [fg, bg] of [
      [theme.colors.text, theme.colors.background],
      [theme.colors.muted, theme.colors.background],
      [theme.colors.link, theme.colors.background],
      [theme.colors.accentText, theme.colors.accent],
    ] as const)
      expect(contrastRatio(fg, bg)).toBeGreaterThanOrEqual(4.5);
  });

  it('ignores values that are not what their key needs', () => {
    const theme = themeOf(
      brand({
        'body-bg-color': 'white',
        'container-logo-wide': 'javascript:alert(1)',
        locale: 'not a locale!',
        'time-zone': 'Mars/Olympus',
        address: 'not an object',
      }),
    );
    expect(theme.colors.background).toBe('#ffffff');
    expect(theme.logoUrl).toBeNull();
    expect(theme.locale).toBe('en-US');
    expect(theme.timeZone).toBeNull();
    expect(theme.contact.address).toBeNull();
    expect(localeOf('fr-ca')).toBe('fr-CA');
  });
});
