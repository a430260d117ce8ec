/** Time as the domain sees it: injected everywhere so tests can set it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

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
