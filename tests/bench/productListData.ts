import type { RequiredEntityData } from '@mikro-orm/core';
import { Offer } from '../../graphql/offers/Offer.js';
import { Stock } from '../../graphql/offers/Stock.js';
import { Venue } from '../../graphql/providers/Venue.js';
import { newImageKey } from '../../platform/images/index.js';
import type { Runtime } from '../../server/runtime.js';

export const LISTED_PRODUCTS = 50;

const DAY_MS = 24 * 3600 * 1000;
const MUSIC_TYPES = ['ROCK', 'JAZZ-BLUES', 'POP', 'MUSIQUE_CLASSIQUE', 'ELECTRO'] as const;

/** An EAN-13 of the 978 prefix with its check digit. */
function ean13(serial: number): string {
  const body = `978${String(serial).padStart(9, '0')}`;
  const sum = [...body].reduce((total, digit, index) => total + Number(digit) * (index % 2 === 0 ? 1 : 3), 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

type StockPlan =
  | { kind: 'none' }
  | {
      kind: 'stock';
      quantity: number | null;
      bookedQuantity: number;
      bookingLimitDays: number | null;
      deletedBefore?: boolean;
    };

/**
 * Six stock situations in turn, so that every status a published product can have shows up:
 * ACTIVE (some booked, unlimited too), SOLD_OUT (no stock, or all booked), EXPIRED (booking
 * limit passed), and a live stock that replaced a deleted one.
 */
function stockPlanOf(index: number): StockPlan {
  switch (index % 6) {
    case 0:
      return { kind: 'stock', quantity: 20, bookedQuantity: index % 5, bookingLimitDays: null };
    case 1:
      return { kind: 'stock', quantity: null, bookedQuantity: 2, bookingLimitDays: 20 };
    case 2:
      return { kind: 'none' };
    case 3:
      return { kind: 'stock', quantity: 10, bookedQuantity: 10, bookingLimitDays: 15 };
    case 4:
      return { kind: 'stock', quantity: 8, bookedQuantity: 1, bookingLimitDays: -1 };
    default:
      return { kind: 'stock', quantity: 15, bookedQuantity: 0, bookingLimitDays: 40, deletedBefore: true };
  }
}

/**
 * 50 approved, published product offers of the sandbox provider: paper books with an EAN,
 * CDs with author, performer, music type and EAN, a few e-books online and a few products
 * at another address; some without stock, with an unlimited stock, a booking limit, booked
 * items. Throws if the provider already has products: the bench lists the first 50 in id order.
 */
export async function seedProducts(runtime: Runtime, owner: { providerId: number; venueId: number }): Promise<void> {
  const em = runtime.orm.em.fork();
  const existing = await em.count(Offer, { provider: owner.providerId, isEvent: false });
  if (existing > 0)
    throw new Error(`The bench provider already has ${existing} product offer(s): the bench needs a fresh database`);
  const venue = await em.findOneOrFail(Venue, owner.venueId);
  const digitalVenue = (await em.findOne(Venue, { offerer: venue.offerer, isVirtual: true })) ?? venue;
  const now = runtime.clock.now();
  const published = new Date(now.getTime() - 30 * DAY_MS);

  for (let index = 0; index < LISTED_PRODUCTS; index += 1) {
    const number = index + 1;
    const ean = ean13(100_000 + number);
    const common: RequiredEntityData<Offer> = {
      name: `Bench product ${number}`,
      venue: owner.venueId,
      provider: owner.providerId,
      category: 'LIVRE_PAPIER',
      isEvent: false,
      audioDisabilityCompliant: index % 2 === 0,
      mentalDisabilityCompliant: index % 3 === 0,
      motorDisabilityCompliant: true,
      visualDisabilityCompliant: false,
      categoryRelatedFields: {},
      enableDoubleBookings: false,
      hasTicket: false,
      locationType: 'physical',
      idAtProvider: `bench-product-${number}`,
      description: index % 4 === 3 ? null : `A benchmark product, number ${number}.`,
      bookingEmail: index % 5 === 0 ? 'orders@bookshop.example.com' : null,
      itemCollectionDetails: index % 7 === 0 ? 'Collect at the counter, opening hours.' : null,
      publicationDatetime: published,
      publishedAt: published,
      bookingOpenedAt: published,
      validation: 'APPROVED',
      validatedAt: published,
      createdAt: published,
      updatedAt: published,
    };
    let data: RequiredEntityData<Offer>;
    if (index % 10 === 9) {
      data = {
        ...common,
        name: `Bench e-book ${number}`,
        category: 'LIVRE_NUMERIQUE',
        categoryRelatedFields: { author: `Author ${number}`, ean },
        ean,
        venue: digitalVenue.id,
        locationType: 'digital',
        url: `https://ebooks.example.com/read/${number}?token={token}`,
      };
    } else if (index % 2 === 0) {
      data = { ...common, category: 'LIVRE_PAPIER', categoryRelatedFields: { author: `Author ${number}`, ean }, ean };
    } else {
      data = {
        ...common,
        name: `Bench album ${number}`,
        category: 'SUPPORT_PHYSIQUE_MUSIQUE_CD',
        categoryRelatedFields: {
          author: `Composer ${number}`,
          performer: `Band ${number}`,
          musicType: MUSIC_TYPES[index % MUSIC_TYPES.length],
          ean,
        },
        ean,
      };
    }
    if (index % 10 === 4 && venue.address) {
      data = { ...data, locationType: 'address', address: venue.address.id, addressLabel: `Pop-up stand ${number}` };
    }
    if (index % 8 === 5)
      data = { ...data, imageKey: newImageKey('jpeg'), imageCredit: index % 16 === 5 ? 'Bench photographer' : null };
    const offer = em.create(Offer, data);

    const plan = stockPlanOf(index);
    if (plan.kind === 'none') continue;
    if (plan.deletedBefore) {
      em.create(Stock, {
        offer,
        price: 900,
        quantity: 5,
        bookedQuantity: 5,
        isDeleted: true,
        createdAt: published,
        updatedAt: published,
      });
    }
    em.create(Stock, {
      offer,
      price: 500 + (index % 9) * 250,
      quantity: plan.quantity,
      bookedQuantity: plan.bookedQuantity,
      bookingLimitDatetime:
        plan.bookingLimitDays == null ? null : new Date(now.getTime() + plan.bookingLimitDays * DAY_MS),
      createdAt: published,
      updatedAt: published,
    });
  }
  await em.flush();
}
