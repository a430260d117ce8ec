import type { EntityManager, RequiredEntityData } from '@mikro-orm/core';
import request from 'supertest';
import { expect } from 'vitest';
import type { Offer } from '../../graphql/offers/Offer.js';
import { PriceCategory } from '../../graphql/offers/PriceCategory.js';
import { Stock } from '../../graphql/offers/Stock.js';
import type { Clock } from '../../platform/time/clock.js';
import type { TestApp } from './app.js';
import { anEvent } from './fixtures.js';

const HOUR = 3_600_000;

/** Runs the due jobs until none is left: what the worker's next polls would do, at once. */
export async function drainJobs(testApp: TestApp): Promise<void> {
  while ((await testApp.runtime.worker.runDueJobs()).claimed > 0);
}

/** A `/graphql` request as the holder of `key`. */
export function graphqlAs(testApp: TestApp, key: string, query: string, variables?: Record<string, unknown>) {
  return request(testApp.app).post('/graphql').set('Authorization', `Bearer ${key}`).send({ query, variables });
}

export interface SandboxBeneficiary {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  birthDate: string;
  phoneNumber: string | null;
  postalCode: string | null;
  credit: number;
}

/** The sandbox mutation that creates a beneficiary, for a test that sends its own input (one to refuse, say). */
export const CREATE_BENEFICIARY = `mutation Beneficiary($input: SandboxBeneficiaryInput!) {
  sandboxCreateBeneficiary(input: $input) { id email firstName lastName birthDate phoneNumber postalCode credit }
}`;
let beneficiaryCounter = 0;

/** A young beneficiary with their full credit, made as an integrator's script makes one: through the sandbox. */
export async function aBeneficiary(
  testApp: TestApp,
  key: string,
  overrides: Record<string, unknown> = {},
): Promise<SandboxBeneficiary> {
  beneficiaryCounter += 1;
  const response = await graphqlAs(testApp, key, CREATE_BENEFICIARY, {
    input: {
      email: `jeune${beneficiaryCounter}@example.com`,
      firstName: 'Alex',
      lastName: `Martin${beneficiaryCounter}`,
      birthDate: '2008-03-01',
      ...overrides,
    },
  });
  expect(response.body.errors, JSON.stringify(response.body.errors)).toBeUndefined();
  return (response.body as { data: { sandboxCreateBeneficiary: SandboxBeneficiary } }).data.sandboxCreateBeneficiary;
}

export interface BookableDateOptions {
  /** Beginning, in hours from now (ten days by default). */
  hours?: number;
  /** Booking limit, in hours from now; null for none; by default an hour before the beginning. */
  bookingLimitHours?: number | null;
  price?: number;
  /** Places; null for unlimited. */
  quantity?: number | null;
  bookedQuantity?: number;
  label?: string;
  /** The price category's id at the provider (none by default). */
  categoryIdAtProvider?: string | null;
  /** The date's id at the provider (none by default). */
  idAtProvider?: string | null;
  /** A date of this event rather than of a new one. */
  offerId?: number;
  /** A date of this price category rather than of a new one. */
  priceCategoryId?: number;
  isDeleted?: boolean;
  /** What differs in the new event. */
  offer?: Partial<RequiredEntityData<Offer>>;
}

/**
 * A date that can be booked: of an approved, published event (or the one given), at a price
 * category of its own (or the one given), with 100 places unless told otherwise.
 */
export async function aBookableDate(
  em: EntityManager,
  clock: Clock,
  owner: { providerId: number; venueId: number },
  options: BookableDateOptions = {},
): Promise<{ offerId: number; category: PriceCategory; stock: Stock }> {
  const now = clock.now();
  const at = (hours: number) => new Date(now.getTime() + hours * HOUR);
  const offerId = options.offerId ?? (await anEvent(em, clock, owner, options.offer ?? {})).id;
  const category = options.priceCategoryId
    ? await em.findOneOrFail(PriceCategory, options.priceCategoryId)
    : em.create(PriceCategory, {
        offer: offerId,
        label: options.label ?? 'Orchestra',
        price: options.price ?? 2500,
        idAtProvider: options.categoryIdAtProvider ?? null,
        createdAt: now,
      });
  const hours = options.hours ?? 240;
  const stock = em.create(Stock, {
    offer: offerId,
    priceCategory: category,
    price: category.price,
    beginningDatetime: at(hours),
    bookingLimitDatetime: options.bookingLimitHours === null ? null : at(options.bookingLimitHours ?? hours - 1),
    quantity: options.quantity === undefined ? 100 : options.quantity,
    bookedQuantity: options.bookedQuantity ?? 0,
    idAtProvider: options.idAtProvider ?? null,
    isDeleted: options.isDeleted ?? false,
    createdAt: now,
    updatedAt: now,
  });
  await em.flush();
  return { offerId, category, stock };
}
