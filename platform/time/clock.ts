/** Time as the domain sees it: injected everywhere so tests can set it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** The clock of a change made earlier: its effects, run later (an outbox job), are dated when it was made. */
export function clockAt(moment: Date): Clock {
  const at = moment.getTime();
  return { now: () => new Date(at) };
}

/** A clock that stands still until told to move; for tests and demos. */
export class SettableClock implements Clock {
  private current: number;

  constructor(start: Date = new Date()) {
    this.current = start.getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  set(moment: Date): void {
    this.current = moment.getTime();
  }

  advance(milliseconds: number): void {
    this.current += milliseconds;
  }
}
