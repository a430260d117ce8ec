import type { Bench } from './harness.js';
import { measureReadPair, noteHopCost, throughItsService } from './harness.js';
import { EXTRA_VENUES, seedOffererVenues } from './offererVenuesData.js';
import { createRawOffererVenuesApp } from './rawOffererVenuesApp.js';
import { createRawProviderApp } from './rawProviderApp.js';
import { PROVIDER_TARGET, READ_TARGET } from './targets.js';

/** GET the key's provider, through the facade and by hand (one query, key joined to its provider). */
export const providerBench: Bench = {
  key: 'provider',
  async run(context) {
    const path = '/public/providers/v1/provider';
    const { comparison } = await measureReadPair(context, {
      key: this.key,
      title: 'GET provider',
      path,
      target: PROVIDER_TARGET,
      raw: createRawProviderApp(context.target.runtime),
      facadeExtras: throughItsService(context, path),
    });
    noteHopCost(context, this.key, 'GET provider', comparison);
  },
};

/**
 * GET the key's offerer with its venues (the sandbox's three and nine more, one of them no
 * longer linked), through the facade and by hand (key, then one query for the linked venues).
 */
export const offererVenuesBench: Bench = {
  key: 'venues',
  async run(context) {
    const { listed } = await seedOffererVenues(context.target.runtime, context.target.owner);
    const expected = 3 + listed;
    await measureReadPair(context, {
      key: this.key,
      title: `offerer venues (1 offerer, ${expected} venues)`,
      path: '/public/offers/v1/offerer_venues',
      target: READ_TARGET,
      raw: createRawOffererVenuesApp(context.target.runtime),
      check(body) {
        const groups = JSON.parse(body) as { venues: { bookingUrl: string | null }[] }[];
        const venues = groups.flatMap((group) => group.venues);
        if (groups.length !== 1 || venues.length !== expected)
          throw new Error(`${groups.length} offerer(s) with ${venues.length} venues, expected 1 with ${expected}`);
        const ownUrls = venues.filter((venue) => venue.bookingUrl !== null).length;
        return `1 offerer, ${expected} venues (${EXTRA_VENUES - listed} unlinked left out), ${ownUrls} with their own URLs`;
      },
    });
  },
};
