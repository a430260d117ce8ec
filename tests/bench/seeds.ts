import type { BenchTarget } from './target.js';

const seeded = new WeakMap<BenchTarget, Map<string, Promise<unknown>>>();

/**
 * A seed run once per target, whichever benchmark asks first: the list of events and the
 * event's own lookup read the same 50 events, the bookings page and the countermark the same
 * bookings. A failed seed fails every benchmark that needs it.
 */
export function seedOnce<T>(target: BenchTarget, name: string, seed: () => Promise<T>): Promise<T> {
  let mine = seeded.get(target);
  if (!mine) seeded.set(target, (mine = new Map()));
  let pending = mine.get(name) as Promise<T> | undefined;
  if (!pending) {
    pending = seed();
    mine.set(name, pending);
  }
  return pending;
}
