import type { RequiredEntityData } from '@mikro-orm/core';
import type { Offer } from '../../graphql/offers/Offer.js';

/**
 * The data of an event offer as the API would have left it once approved and published:
 * one builder for test fixtures and benchmarks alike (no test runner imported here).
 */
export function publishedEventData(
  now: Date,
  owner: { providerId: number; venueId: number },
  overrides: Partial<RequiredEntityData<Offer>> = {},
): RequiredEntityData<Offer> {
  return {
    name: 'Concert at the demo theatre',
    venue: owner.venueId,
    provider: owner.providerId,
    category: 'CONCERT',
    isEvent: true,
    audioDisabilityCompliant: false,
    mentalDisabilityCompliant: false,
    motorDisabilityCompliant: false,
    visualDisabilityCompliant: false,
    categoryRelatedFields: { musicType: 'ROCK' },
    enableDoubleBookings: true,
    hasTicket: false,
    locationType: 'physical',
    publicationDatetime: now,
    publishedAt: now,
    bookingOpenedAt: now,
    validation: 'APPROVED',
    validatedAt: now,
    createdAt: now,
    updatedAt: now,
    ...overrides,
  };
}
