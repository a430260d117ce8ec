import { offerStatus, type StockSummary } from '../../graphql/offers/status.js';
import type { Runtime } from '../../server/runtime.js';
import { flag, jsonColumn, type Row, type RowValues } from './rawSupport.js';

/**
 * The fields every individual offer answer shows, from an `offer` row, in the order the facade
 * writes them (rest-facade/schemas/offerResponse.ts): the raw answers must be the same bytes.
 */

function locationOf(offer: Row) {
  const venueId = Number(offer.venue_id);
  if (offer.location_type === 'digital') return { type: 'digital', venueId, url: (offer.url as string | null) ?? '' };
  if (offer.location_type === 'address') {
    return {
      type: 'address',
      venueId,
      addressId: offer.address_id == null ? 0 : Number(offer.address_id),
      addressLabel: offer.address_label ?? null,
    };
  }
  return { type: 'physical', venueId };
}

export function commonOfferAnswer(
  offer: Row,
  summary: StockSummary,
  values: RowValues,
  images: Runtime['services']['images'],
) {
  return {
    id: Number(offer.id),
    name: offer.name,
    status: offerStatus(
      {
        validation: offer.validation as 'APPROVED',
        isActive: flag(offer.is_active),
        publicationDatetime: values.dateOrNull(offer.publication_datetime),
        publishedAt: values.dateOrNull(offer.published_at),
        bookingOpenedAt: values.dateOrNull(offer.booking_opened_at),
      },
      summary,
    ),
    accessibility: {
      audioDisabilityCompliant: flag(offer.audio_disability_compliant),
      mentalDisabilityCompliant: flag(offer.mental_disability_compliant),
      motorDisabilityCompliant: flag(offer.motor_disability_compliant),
      visualDisabilityCompliant: flag(offer.visual_disability_compliant),
    },
    bookingAllowedDatetime: values.iso(offer.booking_allowed_datetime),
    bookingContact: offer.booking_contact,
    bookingEmail: offer.booking_email,
    categoryRelatedFields: {
      category: offer.category,
      ...jsonColumn<Record<string, unknown>>(offer.category_related_fields),
    },
    description: offer.description,
    enableDoubleBookings: flag(offer.enable_double_bookings),
    externalTicketOfficeUrl: offer.external_ticket_office_url,
    idAtProvider: offer.id_at_provider,
    image: offer.image_key
      ? { url: images.urlOf(offer.image_key as string), credit: offer.image_credit ?? null }
      : null,
    itemCollectionDetails: offer.item_collection_details,
    location: locationOf(offer),
    publicationDatetime: values.iso(offer.publication_datetime),
  };
}

export interface RawPriceCategory {
  id: number;
  label: unknown;
  price: number;
  idAtProvider: unknown;
}

export function priceCategoryOf(row: Row): RawPriceCategory {
  return { id: Number(row.id), label: row.label, price: Number(row.price), idAtProvider: row.id_at_provider };
}

/** An event answer (rest-facade/eventOffers/response.ts): the common fields and the event's. */
export function eventAnswer(
  event: Row,
  priceCategories: RawPriceCategory[],
  summary: StockSummary,
  values: RowValues,
  images: Runtime['services']['images'],
) {
  const common = commonOfferAnswer(event, summary, values, images);
  // In the answer's schema order, as the facade writes it.
  return {
    id: common.id,
    name: common.name,
    status: common.status,
    accessibility: common.accessibility,
    bookingAllowedDatetime: common.bookingAllowedDatetime,
    bookingContact: common.bookingContact,
    bookingEmail: common.bookingEmail,
    categoryRelatedFields: common.categoryRelatedFields,
    description: common.description,
    enableDoubleBookings: common.enableDoubleBookings,
    eventDuration: event.event_duration == null ? null : Number(event.event_duration),
    externalTicketOfficeUrl: common.externalTicketOfficeUrl,
    hasTicket: flag(event.has_ticket),
    idAtProvider: common.idAtProvider,
    image: common.image,
    itemCollectionDetails: common.itemCollectionDetails,
    location: common.location,
    priceCategories,
    publicationDate: values.iso(event.publication_datetime),
    publicationDatetime: common.publicationDatetime,
    videoUrl: event.video_url,
  };
}

/** Per offer, the count of its dates, of those still open, of those open with places left. */
export function stockSummariesSql(offerIds: unknown[]): string {
  const open =
    '(booking_limit_datetime is null or booking_limit_datetime > ?) and (beginning_datetime is null or beginning_datetime > ?)';
  return `select offer_id, count(*) as stock_count,
      sum(case when ${open} then 1 else 0 end) as open_count,
      sum(case when ${open} and (quantity is null or quantity > booked_quantity) then 1 else 0 end) as open_with_places
    from stock where offer_id in (${offerIds.map(() => '?').join(', ')}) and is_deleted = ? group by offer_id`;
}

export function stockSummaryOf(row: Row | undefined): StockSummary {
  return row
    ? { count: Number(row.stock_count), open: Number(row.open_count), openWithPlaces: Number(row.open_with_places) }
    : { count: 0, open: 0, openWithPlaces: 0 };
}
