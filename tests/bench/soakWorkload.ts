import { Beneficiary } from '../../graphql/bookings/Beneficiary.js';
import { Offer } from '../../graphql/offers/Offer.js';
import { PriceCategory } from '../../graphql/offers/PriceCategory.js';
import { Stock } from '../../graphql/offers/Stock.js';
import { issueApiKey } from '../../graphql/providers/apiKeys.js';
import { Offerer } from '../../graphql/providers/Offerer.js';
import { Provider } from '../../graphql/providers/Provider.js';
import { Venue } from '../../graphql/providers/Venue.js';
import { systemClock } from '../../platform/time/clock.js';
import { openDatabase } from '../../server/db/orm.js';
import { publishedEventData } from '../support/eventData.js';

/**
 * The soak's data and its mix of operations: reads, writes and bookings of the demo provider, as
 * integrations send them, on many keys so that no key reaches its 200 requests per minute.
 */

const KEYS = 400;
const BENEFICIARIES = 500;
const DAY = 86_400_000;

export interface SoakData {
  keys: string[];
  beneficiaryIds: number[];
  /** Dates with room for every booking of the run, at 1 euro. */
  bookableStockIds: number[];
  /** Events that receive new dates, each with its price category. */
  growingEvents: { offerId: number; priceCategoryId: number }[];
  /** Dates whose number of places is edited. */
  editedDates: { offerId: number; stockId: number }[];
}

/** Written straight to the database once the first process has migrated it and made the demo sandbox. */
export async function prepareSoakData(databaseUrl: string, notificationUrl: string): Promise<SoakData> {
  const orm = await openDatabase({ kind: 'postgresql', url: databaseUrl });
  try {
    const em = orm.em.fork();
    const now = new Date();
    const provider = await em.findOneOrFail(Provider, { id: { $gt: 0 } }, { orderBy: { id: 'asc' } });
    const offerer = await em.findOneOrFail(Offerer, { id: { $gt: 0 } }, { orderBy: { id: 'asc' } });
    const venue = await em.findOneOrFail(Venue, { offerer, isVirtual: false }, { orderBy: { id: 'asc' } });
    provider.notificationUrl = notificationUrl;
    const owner = { providerId: provider.id, venueId: venue.id };
    const keys = Array.from(
      { length: KEYS },
      () => issueApiKey(em, systemClock, { env: 'soak', provider, offerer }).key,
    );
    const beneficiaries = Array.from({ length: BENEFICIARIES }, (_, index) =>
      em.create(Beneficiary, {
        provider,
        email: `soak.${index}@example.com`,
        firstName: 'Soak',
        lastName: `Number ${index}`,
        birthDate: '2007-01-01',
        credit: 30_000,
      }),
    );
    const anEvent = (name: string) => {
      const offer = em.create(Offer, publishedEventData(now, owner, { name }));
      const category = em.create(PriceCategory, { offer, label: 'Standard', price: 100, createdAt: now });
      return { offer, category };
    };
    const aDate = (event: ReturnType<typeof anEvent>, days: number, quantity: number) =>
      em.create(Stock, {
        offer: event.offer,
        priceCategory: event.category,
        price: event.category.price,
        beginningDatetime: new Date(now.getTime() + days * DAY),
        bookingLimitDatetime: new Date(now.getTime() + (days - 1) * DAY),
        quantity,
        bookedQuantity: 0,
        isDeleted: false,
        createdAt: now,
        updatedAt: now,
      });
    const bookable = Array.from({ length: 10 }, (_, index) => aDate(anEvent(`Soak concert ${index}`), 20, 1_000_000));
    const growing = Array.from({ length: 40 }, (_, index) => anEvent(`Soak festival ${index}`));
    const edited = Array.from({ length: 20 }, (_, index) => aDate(anEvent(`Soak play ${index}`), 30, 500));
    await em.flush();
    return {
      keys,
      beneficiaryIds: beneficiaries.map((beneficiary) => beneficiary.id),
      bookableStockIds: bookable.map((stock) => stock.id),
      growingEvents: growing.map(({ offer, category }) => ({ offerId: offer.id, priceCategoryId: category.id })),
      editedDates: edited.map((stock) => ({ offerId: stock.offer.id, stockId: stock.id })),
    };
  } finally {
    await orm.close(true);
  }
}

export interface SoakRequest {
  kind: string;
  method: string;
  path: string;
  body?: unknown;
  expected: number;
  /** A /graphql answer is 200 even when refused: its errors say it. */
  graphql?: boolean;
}

const BOOK = 'mutation Book($input: SandboxBookingInput!) { sandboxBook(input: $input) { id } }';

/** The mix: each operation with its weight. `n` numbers the request, so that new dates never collide. */
const MIX: { weight: number; make: (data: SoakData, n: number, pick: <T>(list: T[]) => T) => SoakRequest }[] = [
  {
    weight: 25,
    make: () => ({ kind: 'read provider', method: 'GET', path: '/public/providers/v1/provider', expected: 200 }),
  },
  {
    weight: 15,
    make: (data, _n, pick) => ({
      kind: 'read dates',
      method: 'GET',
      path: `/public/offers/v1/events/${pick(data.editedDates).offerId}/dates?limit=50`,
      expected: 200,
    }),
  },
  {
    weight: 10,
    make: (data, _n, pick) => ({
      kind: 'read bookings',
      method: 'GET',
      path: `/public/bookings/v1/bookings?offerId=${pick(data.growingEvents).offerId}&limit=50`,
      expected: 200,
    }),
  },
  {
    weight: 12,
    make: (data, n, pick) => {
      const event = pick(data.growingEvents);
      const beginning = new Date(Date.now() + 40 * DAY + n * 60_000);
      return {
        kind: 'add a date',
        method: 'POST',
        path: `/public/offers/v1/events/${event.offerId}/dates`,
        body: {
          dates: [
            {
              beginningDatetime: beginning.toISOString(),
              bookingLimitDatetime: new Date(beginning.getTime() - DAY).toISOString(),
              priceCategoryId: event.priceCategoryId,
              quantity: 50,
              idAtProvider: `soak-${n}`,
            },
          ],
        },
        expected: 200,
      };
    },
  },
  {
    weight: 13,
    make: (data, n, pick) => {
      const date = pick(data.editedDates);
      return {
        kind: 'edit a date',
        method: 'PATCH',
        path: `/public/offers/v1/events/${date.offerId}/dates/${date.stockId}`,
        body: { quantity: 400 + (n % 100) },
        expected: 200,
      };
    },
  },
  {
    weight: 25,
    make: (data, _n, pick) => ({
      kind: 'book',
      method: 'POST',
      path: '/graphql',
      body: {
        query: BOOK,
        variables: {
          input: { stockId: pick(data.bookableStockIds), quantity: 1, beneficiaryId: pick(data.beneficiaryIds) },
        },
      },
      expected: 200,
      graphql: true,
    }),
  },
];

const TOTAL_WEIGHT = MIX.reduce((sum, entry) => sum + entry.weight, 0);

/** The n-th request of the run, drawn from the mix. */
export function nextRequest(data: SoakData, n: number, random: () => number): SoakRequest {
  const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)];
  let draw = random() * TOTAL_WEIGHT;
  for (const entry of MIX) {
    draw -= entry.weight;
    if (draw < 0) return entry.make(data, n, pick);
  }
  return MIX[0].make(data, n, pick);
}
