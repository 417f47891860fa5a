// The authorization request's `prompt` and `max_age` (OIDC Core §3.1.2.1), parsed; prompt.ts acts on them.
import { PROMPT_VALUES } from '../modules/auth/index.js';

export type Prompt = (typeof PROMPT_VALUES)[number];

export interface Interaction {
  prompt: ReadonlySet<Prompt>;
  /** Seconds a password sign-in may be old for this request, or null when the client set no limit. */
  maxAge: number | null;
}

/** max_age is a count of seconds; ten digits are more than three centuries. */
const MAX_AGE = /^\d{1,10}$/;

export function parseInteraction(prompt: string | null, maxAge: string | null): Interaction | { invalid: string } {
  const words = prompt === null ? [] : prompt.split(' ');
  const unknown = words.find((word) => !(PROMPT_VALUES as readonly string[]).includes(word));
  if (unknown !== undefined) return { invalid: `prompt must be none, or any of login, consent, select_account` };
  // §3.1.2.1: none with any other value is an error (it forbids the very pages the others ask for).
  if (words.includes('none') && words.length > 1)
    return { invalid: 'prompt=none cannot be combined with other values' };
  if (maxAge !== null && !MAX_AGE.test(maxAge)) return { invalid: 'max_age must be a number of seconds' };
  return { prompt: new Set(words as Prompt[]), maxAge: maxAge === null ? null : Number(maxAge) };
}
