// Whether text names an IANA time zone the runtime knows: the one check behind every `timezone` field, in the
// services and, as the `iana-time-zone` format, in request validation (platform/validation.ts).

/** True for a zone name the runtime knows (canonical names and their links, e.g. "US/Central"). */
export function isValidTimeZone(zone: string): boolean {
  if (zone.trim() === '' || zone !== zone.trim()) return false;
  try {
    // Throws RangeError for an unknown zone; accepts every alias the ICU data has, which
    // Intl.supportedValuesOf('timeZone') (canonical names only) would wrongly refuse.
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
