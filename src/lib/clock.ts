// Time is injected so tests can move it (token expiry, TOTP steps, schedules).
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests can set and advance. */
export class ManualClock implements Clock {
  private current: number;

  constructor(start: Date | number = Date.now()) {
    this.current = typeof start === 'number' ? start : start.getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  set(at: Date | number): void {
    this.current = typeof at === 'number' ? at : at.getTime();
  }

  advance(seconds: number): void {
    this.current += seconds * 1000;
  }
}

/** Epoch seconds (fractional), the wire format of every timestamp but the extmail credential's. */
export function epochSeconds(date: Date): number;
export function epochSeconds(date: Date | null): number | null;
export function epochSeconds(date: Date | null): number | null {
  return date === null ? null : date.getTime() / 1000;
}

export function addSeconds(date: Date, seconds: number): Date {
  return new Date(date.getTime() + seconds * 1000);
}
