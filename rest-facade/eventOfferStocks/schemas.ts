import { dateList } from '../../graphql/offers/fieldRules.js';
import {
  DATE_QUANTITY_MAX,
  DATES_PER_CALL_MAX,
  DATES_PER_OFFER_MAX,
  ID_AT_PROVIDER_MAX_LENGTH,
} from '../../graphql/offers/limits.js';
import { idAtProviderInput, PriceCategoryResponse } from '../eventOfferPriceCategories/schemas.js';
import { dateTime } from '../schemas/common.js';
import { id } from '../schemas/inputs.js';
import { awareDateTimeInput } from '../schemas/datetimes.js';
import { quantityInput, quantityOutput, UNLIMITED } from '../schemas/quantity.js';
import { z } from '../zod.js';

const priceCategoryId = id().openapi({ description: 'A price category of the same event.' });

export const EventStockCreation = z
  .object({
    beginningDatetime: awareDateTimeInput.openapi({
      description: 'In the future; ISO 8601 with a timezone, stored in UTC.',
    }),
    bookingLimitDatetime: awareDateTimeInput.openapi({
      description: 'Not after the beginning, nor before the publication of the event when one is set.',
    }),
    priceCategoryId,
    quantity: quantityInput(1).openapi({
      description: `Places on sale: 1 to ${DATE_QUANTITY_MAX}, or "${UNLIMITED}".`,
    }),
    idAtProvider: idAtProviderInput.openapi({
      description: 'Your own identifier, unique among the dates of the event that are not deleted.',
    }),
  })
  .openapi('EventStockCreation');

export const EventStocksCreation = z
  .strictObject({
    dates: dateList(EventStockCreation).openapi({
      description:
        `At most ${DATES_PER_CALL_MAX} per call and ${DATES_PER_OFFER_MAX} dates per event in total; ` +
        'one date per beginning and price category.',
    }),
  })
  .openapi('EventStocksCreation');

const keepWhenNull = 'Leave it out (or null) to keep it.';

export const EventStockEdition = z
  .strictObject({
    beginningDatetime: awareDateTimeInput
      .nullable()
      .optional()
      .openapi({ description: `In the future. Sent, even unchanged, it counts as a rescheduling. ${keepWhenNull}` }),
    bookingLimitDatetime: awareDateTimeInput
      .nullable()
      .optional()
      .openapi({ description: `Not after the beginning, nor before the publication of the event. ${keepWhenNull}` }),
    priceCategoryId: priceCategoryId
      .nullable()
      .optional()
      .openapi({ description: `A price category of the same event. ${keepWhenNull}` }),
    quantity: quantityInput(0)
      .nullable()
      .optional()
      .openapi({
        description: `Places still on sale, booked ones not counted: 0 to ${DATE_QUANTITY_MAX}, or "${UNLIMITED}". ${keepWhenNull}`,
      }),
    idAtProvider: idAtProviderInput.openapi({ description: 'Leave it out to keep it; null clears it.' }),
  })
  .openapi('EventStockEdition');

export const DateResponse = z
  .object({
    id: z.int(),
    beginningDatetime: dateTime,
    bookingLimitDatetime: dateTime,
    bookedQuantity: z.int(),
    quantity: quantityOutput.openapi({
      description: 'All the places, booked ones included (bookedQuantity), or "unlimited".',
    }),
    idAtProvider: z.string().max(ID_AT_PROVIDER_MAX_LENGTH).nullable(),
    priceCategory: PriceCategoryResponse,
  })
  .openapi('DateResponse');

export const GetDatesResponse = z.object({ dates: z.array(DateResponse) }).openapi('GetDatesResponse');
export const PostDatesResponse = z.object({ dates: z.array(DateResponse) }).openapi('PostDatesResponse');
