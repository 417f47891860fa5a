// Retry-After (RFC 9110 §10.2.3), read the same way by every outbound delivery: webhooks and the push providers.

/** Retry-After beyond this is capped (a receiver cannot park a delivery for months). */
export const MAX_RETRY_AFTER_SECONDS = 24 * 3600;

/** Retry-After as delta seconds or an HTTP date, bounded to 1 s – 24 h; null when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now: Date): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return null;
  const seconds = /^\d+$/.test(text.trim()) ? Number(text.trim()) : (Date.parse(text) - now.getTime()) / 1000;
  if (!Number.isFinite(seconds)) return null;
  return Math.min(Math.max(seconds, 1), MAX_RETRY_AFTER_SECONDS);
}
