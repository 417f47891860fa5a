// Query strings as existing clients send them: `a[]=1&a[]=2`, `a=1&a=2` and `a=1` all parse; bracketed keys
// lose their brackets. Schemas with array types then accept one value or many (Ajv coerces to arrays).
export function parseQueryString(text: string): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = Object.create(null);
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const bracketed = rawKey.endsWith('[]');
    const key = bracketed ? rawKey.slice(0, -2) : rawKey;
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') continue;
    const existing = result[key];
    if (existing === undefined) result[key] = bracketed ? [value] : value;
    else if (Array.isArray(existing)) existing.push(value);
    else result[key] = [existing, value];
  }
  return result;
}
