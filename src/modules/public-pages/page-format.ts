// Numbers, prices, areas and dates of the public pages in the page's locale (the brand's, en-US by default) with
// Intl. Areas follow the locale: square feet and acres where the locale's region measures so (US, Liberia,
// Myanmar; a bare `en` means en-US), square metres and hectares elsewhere. The words around them stay English for now.
const SQUARE_FEET_PER_SQUARE_METER = 10.763910416709722;
const SQUARE_METERS_PER_ACRE = 4046.8564224;
const SQUARE_METERS_PER_HECTARE = 10_000;
const IMPERIAL_REGIONS = new Set(['US', 'LR', 'MM']);

/**
 * Intl formatters, shared by every page of the process: building one costs tens of microseconds (a listing page
 * needs about ten), using one a microsecond, and they hold no state. Keyed by what they were built from; a page
 * only ever asks for the handful of (locale, zone, currency) its brands use, and the map starts over if that ever
 * grows past a bound (a brand's palette names its own locale and zone).
 */
const formatters = new Map<string, unknown>();
const MAX_FORMATTERS = 500;
function shared<T>(key: string, build: () => T): T {
  const found = formatters.get(key) as T | undefined;
  if (found !== undefined) return found;
  const made = build();
  if (formatters.size >= MAX_FORMATTERS) formatters.clear();
  formatters.set(key, made);
  return made;
}

export class PageFormat {
  private readonly number: Intl.NumberFormat;
  private readonly decimal: Intl.NumberFormat;
  readonly imperial: boolean;

  constructor(
    readonly locale: string,
    readonly timeZone: string,
  ) {
    this.number = shared(`number|${locale}`, () => new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }));
    this.decimal = shared(`decimal|${locale}`, () => new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }));
    this.imperial = shared(`imperial|${locale}`, () => {
      const region = new Intl.Locale(locale).maximize().region;
      return region !== undefined && IMPERIAL_REGIONS.has(region);
    });
  }

  count(value: number): string {
    return this.decimal.format(value);
  }

  /** "$450,000" (en-US), "450 000 $US" (fr-FR); an unknown currency code prints as "450,000 XYZ". */
  money(amount: number, currency: string): string {
    try {
      return shared(
        `money|${this.locale}|${currency}`,
        () => new Intl.NumberFormat(this.locale, { style: 'currency', currency, maximumFractionDigits: 0 }),
      ).format(amount);
    } catch {
      return `${this.number.format(amount)} ${currency}`;
    }
  }

  /** Interior area: "1,850 sq ft" or "172 m²". */
  area(squareMeters: number): string {
    return this.imperial
      ? `${this.number.format(squareMeters * SQUARE_FEET_PER_SQUARE_METER)} sq ft`
      : `${this.number.format(squareMeters)} m²`;
  }

  /** A lot: under an acre in sq ft, else acres; metric: m², else hectares from one hectare up. */
  lot(squareMeters: number): string {
    if (this.imperial) {
      if (squareMeters < SQUARE_METERS_PER_ACRE) return this.area(squareMeters);
      const acres = squareMeters / SQUARE_METERS_PER_ACRE;
      return `${this.decimal.format(acres)} ${acres === 1 ? 'acre' : 'acres'}`;
    }
    if (squareMeters < SQUARE_METERS_PER_HECTARE) return this.area(squareMeters);
    return `${this.decimal.format(squareMeters / SQUARE_METERS_PER_HECTARE)} ha`;
  }

  /** A day: "Nov 28, 2026". */
  date(epochSeconds: number): string {
    return shared(
      `date|${this.locale}|${this.timeZone}`,
      () => new Intl.DateTimeFormat(this.locale, { dateStyle: 'medium', timeZone: this.timeZone }),
    ).format(epochSeconds * 1000);
  }

  /** An open house: "Sat, Nov 28, 10:00 AM – 12:00 PM CST", the zone named so nobody guesses. */
  timeRange(startSeconds: number, endSeconds: number): string {
    const format = shared(
      `range|${this.locale}|${this.timeZone}`,
      () =>
        new Intl.DateTimeFormat(this.locale, {
          weekday: 'short',
          month: 'short',
          day: 'numeric',
          hour: 'numeric',
          minute: '2-digit',
          timeZone: this.timeZone,
          timeZoneName: 'short',
        }),
    );
    return format.formatRange(startSeconds * 1000, endSeconds * 1000);
  }

  /** The year in the page's zone (an MLS disclaimer's {{currentYear}}). */
  year(now: Date): string {
    return shared(
      `year|${this.timeZone}`,
      () => new Intl.DateTimeFormat('en-US', { year: 'numeric', timeZone: this.timeZone }),
    ).format(now);
  }
}
