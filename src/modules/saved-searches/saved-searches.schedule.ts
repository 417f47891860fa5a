// The delivery schedule of a contact link (spec §2.5 and §8): which fields each frequency needs. The JSON schema
// checks ranges and the exact-case frequency names; this checks presence by frequency.
import { errors, type ErrorAttributes } from '../../errors.js';
import type { Schedule } from './saved-searches.repository.js';
import type { Frequency } from './saved-searches.schemas.js';

export const DEFAULT_FREQUENCY: Frequency = 'Instant';

const NEEDS: Record<Frequency, readonly ('send_time' | 'send_weekday' | 'send_monthday')[]> = {
  Instant: [],
  Never: [],
  Daily: ['send_time'],
  Weekly: ['send_time', 'send_weekday'],
  Monthly: ['send_time', 'send_monthday'],
};

type ScheduleInput = {
  frequency?: Frequency | null;
  send_time?: number | null;
  send_weekday?: number | null;
  send_monthday?: number | null;
};

/**
 * The schedule of the body, over `base` (PATCH: the search's current schedule) for fields the body leaves out.
 * Fields the frequency does not use are dropped (Instant and Never ignore them all); a missing one is a 400.
 */
export function scheduleOf(input: ScheduleInput, base: Schedule | null): Schedule {
  const frequency = (input.frequency ?? base?.frequency ?? DEFAULT_FREQUENCY) as Frequency;
  const pick = (field: 'send_time' | 'send_weekday' | 'send_monthday') =>
    (input[field] !== undefined ? input[field] : (base?.[field] ?? null)) ?? null;
  const problems: ErrorAttributes = {};
  const schedule: Schedule = { frequency, send_time: null, send_weekday: null, send_monthday: null };
  for (const field of NEEDS[frequency]) {
    const value = pick(field);
    if (value === null) problems[field] = [`is required with frequency ${frequency}`];
    else schedule[field] = value;
  }
  const [field, messages] = Object.entries(problems)[0] ?? [];
  if (field && messages) throw errors.validation(`${field} ${messages[0]}`, problems);
  return schedule;
}
