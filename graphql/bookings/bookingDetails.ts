import type { EntityManager } from '@mikro-orm/core';
import type { Stock } from '../offers/Stock.js';
import type { Address } from '../providers/Address.js';
import { Provider } from '../providers/Provider.js';
import { VenueProvider } from '../providers/VenueProvider.js';
import type { Beneficiary } from './Beneficiary.js';
import type { Booking } from './Booking.js';

/**
 * What the platform tells a provider's system about a booking, in the flat shape pass Culture's
 * own platform sends (ticketing systems already connected to it parse these very keys): the
 * booking, its offer, price category and stock with the provider's own identifiers, where it
 * takes place and who booked. The booking call to a ticketing system carries exactly this; a
 * BOOK or CANCEL notification adds `action`.
 */
export interface BookingDetails {
  /** Until when the beneficiary may cancel (the cancellation limit); null for a product. */
  booking_confirmation_date: string | null;
  booking_creation_date: string;
  booking_quantity: number;
  offer_ean: string | null;
  offer_id: number;
  offer_id_at_provider: string | null;
  offer_name: string;
  /** In euro cents: the price category's price for an event, the stock's for a product. */
  offer_price: number;
  price_category_id: number | null;
  price_category_id_at_provider: string | null;
  price_category_label: string | null;
  stock_id: number;
  stock_id_at_provider: string | null;
  user_birth_date: string;
  user_email: string;
  user_first_name: string;
  user_last_name: string;
  user_phone: string | null;
  /** The street of where the offer takes place: its own address, else its venue's. */
  venue_address: string | null;
  venue_department_code: string | null;
  venue_id: number;
  /** The label of the offer's own address, else its venue's legal name. */
  venue_name: string;
}

/** A BOOK or CANCEL notification: the booking's details and what happened. */
export type BookingNotification = BookingDetails & { action: 'BOOK' | 'CANCEL' };

/** A datetime as these messages carry it: UTC, to the second, without a zone (`2027-02-10T14:03:27`). */
export function messageDatetime(date: Date): string {
  return date.toISOString().slice(0, 19);
}

/** A loaded address, or null (a reference not loaded, or none). */
function loaded(address: Address | null): Address | null {
  return address && 'city' in address ? address : null;
}

/**
 * The stock must come with its offer, the offer's address, its venue (and the venue's address)
 * and its price category loaded.
 */
export function bookingDetailsOf(
  stock: Stock,
  beneficiary: Beneficiary,
  booking: Pick<Booking, 'quantity' | 'creationDate' | 'cancellationLimitDate'>,
): BookingDetails {
  const { offer, priceCategory } = stock;
  const venue = offer.venue;
  const offerAddress = loaded(offer.address);
  const address = offerAddress ?? loaded(venue.address);
  return {
    booking_confirmation_date: booking.cancellationLimitDate ? messageDatetime(booking.cancellationLimitDate) : null,
    booking_creation_date: messageDatetime(booking.creationDate),
    booking_quantity: booking.quantity,
    offer_ean: offer.ean,
    offer_id: offer.id,
    offer_id_at_provider: offer.idAtProvider,
    offer_name: offer.name,
    offer_price: priceCategory?.price ?? stock.price,
    price_category_id: priceCategory?.id ?? null,
    price_category_id_at_provider: priceCategory?.idAtProvider ?? null,
    price_category_label: priceCategory?.label ?? null,
    stock_id: stock.id,
    stock_id_at_provider: stock.idAtProvider,
    user_birth_date: beneficiary.birthDate,
    user_email: beneficiary.email,
    user_first_name: beneficiary.firstName,
    user_last_name: beneficiary.lastName,
    user_phone: beneficiary.phoneNumber,
    venue_address: address?.street ?? null,
    venue_department_code: address?.departmentCode ?? null,
    venue_id: venue.id,
    venue_name: (offerAddress && offer.addressLabel) || venue.legalName,
  };
}

export interface ProviderEndpoints {
  bookingUrl: string | null;
  cancelUrl: string | null;
  notificationUrl: string | null;
  secret: string;
}

/** The provider's URLs for a venue: the venue's own, where set, win over the provider's. */
export async function providerEndpoints(
  em: EntityManager,
  providerId: number,
  venueId: number,
): Promise<ProviderEndpoints> {
  const [link, provider] = await Promise.all([
    em.findOne(VenueProvider, { venue: venueId, provider: providerId }),
    // The secret is a lazy property: never loaded unless asked for.
    em.findOneOrFail(Provider, providerId, { populate: ['messagingSecret'] }),
  ]);
  return {
    bookingUrl: link?.bookingUrl ?? provider.bookingUrl,
    cancelUrl: link?.cancelUrl ?? provider.cancelUrl,
    notificationUrl: link?.notificationUrl ?? provider.notificationUrl,
    secret: provider.messagingSecret,
  };
}
