import { LISTED_EVENTS, seedEvents } from './eventListData.js';
import type { Bench, BenchContext } from './harness.js';
import { measureReadPair, noteHopCost, throughItsService } from './harness.js';
import { createRawEventApp, createRawEventListApp } from './rawEventApps.js';
import { seedOnce } from './seeds.js';
import { READ_TARGET } from './targets.js';

/** The 50 events both benchmarks read, seeded by whichever runs first. */
function benchEvents(context: BenchContext): Promise<number[]> {
  return seedOnce(context.target, 'events', () => seedEvents(context.target.runtime, context.target.owner));
}

/**
 * GET a page of 50 events with their price categories and statuses (from the first seeded
 * event on, so that events other benchmarks create stay out of it), through the facade and by
 * hand (four queries, same connection).
 */
export const eventListBench: Bench = {
  key: 'events',
  async run(context) {
    const ids = await benchEvents(context);
    const path = `/public/offers/v1/events?firstIndex=${ids[0]}&limit=${LISTED_EVENTS}`;
    const title = `${LISTED_EVENTS} events with price categories`;
    const { comparison } = await measureReadPair(context, {
      key: this.key,
      title,
      path,
      target: READ_TARGET,
      raw: createRawEventListApp(context.target.runtime),
      facadeExtras: throughItsService(context, path),
      check(body) {
        const { events } = JSON.parse(body) as { events: { id: number }[] };
        const listed = events.map((event) => event.id).join();
        if (listed !== ids.join()) throw new Error(`listed events ${listed}, expected the seeded ${ids.join()}`);
        return `the ${LISTED_EVENTS} seeded events`;
      },
    });
    noteHopCost(context, this.key, title, comparison);
  },
};

/** GET one of those events (3 price categories, 5 dates), through the facade and by hand (four queries). */
export const eventBench: Bench = {
  key: 'event',
  async run(context) {
    const ids = await benchEvents(context);
    // One with an image and its credit, and a duration: the optional parts of the answer filled.
    const id = ids[21];
    await measureReadPair(context, {
      key: this.key,
      title: 'one event with price categories',
      path: `/public/offers/v1/events/${id}`,
      target: READ_TARGET,
      raw: createRawEventApp(context.target.runtime),
      check(body) {
        const event = JSON.parse(body) as { id: number; priceCategories: unknown[]; image: unknown };
        if (event.id !== id || event.priceCategories.length !== 3 || event.image === null)
          throw new Error(`event ${event.id}: expected event ${id} with 3 price categories and an image`);
        return 'with its 3 price categories and its image';
      },
    });
  },
};
