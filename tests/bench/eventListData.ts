import { Offer } from '../../graphql/offers/Offer.js';
import { publishedEventData } from '../support/eventData.js';
import { PriceCategory } from '../../graphql/offers/PriceCategory.js';
import { Stock } from '../../graphql/offers/Stock.js';
import { newImageKey } from '../../platform/images/index.js';
import type { Runtime } from '../../server/runtime.js';

export const LISTED_EVENTS = 50;
const PRICE_CATEGORIES_PER_EVENT = 3;
const DATES_PER_EVENT = 5;

/**
 * 50 approved, published events of the sandbox provider, each with 3 price categories and 5
 * dates, most with a duration, some with a booking e-mail or an image; their ids, in order.
 */
export async function seedEvents(runtime: Runtime, owner: { providerId: number; venueId: number }): Promise<number[]> {
  const em = runtime.orm.em.fork();
  const now = runtime.clock.now();
  const day = 24 * 3600 * 1000;
  const offers: Offer[] = [];
  for (let index = 0; index < LISTED_EVENTS; index += 1) {
    const offer = em.create(
      Offer,
      publishedEventData(now, owner, {
        name: `Bench concert ${index + 1}`,
        audioDisabilityCompliant: index % 2 === 0,
        motorDisabilityCompliant: true,
        categoryRelatedFields: { musicType: 'ROCK', performer: `Band ${index + 1}` },
        idAtProvider: `bench-${index + 1}`,
        description: 'A benchmark event.',
        eventDuration: index % 3 === 2 ? null : 60 + (index % 4) * 30,
        bookingEmail: index % 5 === 0 ? 'billetterie@theatre.example.com' : null,
        ...(index % 8 === 5
          ? { imageKey: newImageKey('jpeg'), imageCredit: index % 16 === 5 ? 'Bench photographer' : null }
          : {}),
      }),
    );
    offers.push(offer);
    for (let category = 0; category < PRICE_CATEGORIES_PER_EVENT; category += 1) {
      const priceCategory = em.create(PriceCategory, {
        offer,
        label: `Tier ${category + 1}`,
        price: 1000 + category * 500,
        idAtProvider: `tier-${category + 1}`,
        createdAt: now,
      });
      for (let date = 0; date < DATES_PER_EVENT; date += 1) {
        const beginning = new Date(now.getTime() + (10 + date) * day);
        em.create(Stock, {
          offer,
          priceCategory,
          beginningDatetime: beginning,
          bookingLimitDatetime: beginning,
          price: priceCategory.price,
          quantity: 100,
          bookedQuantity: date,
          createdAt: now,
          updatedAt: now,
        });
      }
    }
  }
  await em.flush();
  return offers.map((offer) => offer.id);
}
