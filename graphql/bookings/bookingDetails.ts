import type { EntityManager } from '@mikro-orm/core';
import type { Stock } from '../offers/Stock.js';
import { Provider } from '../providers/Provider.js';
import { VenueProvider } from '../providers/VenueProvider.js';
import type { Beneficiary } from './Beneficiary.js';
import type { Booking } from './Booking.js';

/**
 * What the platform tells a provider's system about a booking: the booking, its offer, price
 * category and stock (with the provider's own identifiers), the venue and the beneficiary.
 * Used by ticketing calls and booking notifications alike.
 */
export interface BookingDetails {
  booking: {
    id: number | null;
    token: string | null;
    quantity: number;
    unitPrice: number;
    totalPrice: number;
    creationDate: string;
    cancellationLimitDate: string | null;
    status: string;
  };
  offer: { id: number; idAtProvider: string | null; name: string; category: string; ean: string | null };
  priceCategory: { id: number; idAtProvider: string | null; label: string } | null;
  stock: { id: number; idAtProvider: string | null; beginningDatetime: string | null };
  venue: {
    id: number;
    name: string;
    street: string | null;
    city: string | null;
    postalCode: string | null;
    departmentCode: string | null;
    siret: string | null;
  };
  beneficiary: {
    email: string;
    firstName: string;
    lastName: string;
    birthDate: string;
    phoneNumber: string | null;
    postalCode: string | null;
  };
}

/** The stock must come with its offer, the offer's venue (and its address) and price category loaded. */
export function bookingDetailsOf(
  stock: Stock,
  beneficiary: Beneficiary,
  booking: Pick<Booking, 'quantity' | 'amount' | 'creationDate' | 'cancellationLimitDate' | 'status'> & {
    id?: number;
    token?: string;
  },
): BookingDetails {
  const { offer } = stock;
  const venue = offer.venue;
  const address = venue.address && 'city' in venue.address ? venue.address : null;
  return {
    booking: {
      id: booking.id ?? null,
      token: booking.token ?? null,
      quantity: booking.quantity,
      unitPrice: booking.amount,
      totalPrice: booking.amount * booking.quantity,
      creationDate: booking.creationDate.toISOString(),
      cancellationLimitDate: booking.cancellationLimitDate?.toISOString() ?? null,
      status: booking.status,
    },
    offer: {
      id: offer.id,
      idAtProvider: offer.idAtProvider,
      name: offer.name,
      category: offer.category,
      ean: offer.ean,
    },
    priceCategory: stock.priceCategory
      ? { id: stock.priceCategory.id, idAtProvider: stock.priceCategory.idAtProvider, label: stock.priceCategory.label }
      : null,
    stock: {
      id: stock.id,
      idAtProvider: stock.idAtProvider,
      beginningDatetime: stock.beginningDatetime?.toISOString() ?? null,
    },
    venue: {
      id: venue.id,
      name: venue.publicName ?? venue.legalName,
      street: address?.street ?? null,
      city: address?.city ?? null,
      postalCode: address?.postalCode ?? null,
      departmentCode: address?.departmentCode ?? null,
      siret: venue.siret,
    },
    beneficiary: {
      email: beneficiary.email,
      firstName: beneficiary.firstName,
      lastName: beneficiary.lastName,
      birthDate: beneficiary.birthDate,
      phoneNumber: beneficiary.phoneNumber,
      postalCode: beneficiary.postalCode,
    },
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
