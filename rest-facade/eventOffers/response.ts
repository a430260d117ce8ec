import type { z } from '../zod.js';
import type { EventOfferResponse } from './schemas.js';

/** An event offer as the offers subgraph answers it. */
export interface GraphEvent {
  id: number;
  name: string;
  description: string | null;
  status: string;
  idAtProvider: string | null;
  audioDisabilityCompliant: boolean;
  mentalDisabilityCompliant: boolean;
  motorDisabilityCompliant: boolean;
  visualDisabilityCompliant: boolean;
  categoryRelatedFields: Record<string, unknown>;
  bookingContact: string | null;
  bookingEmail: string | null;
  externalTicketOfficeUrl: string | null;
  videoUrl: string | null;
  enableDoubleBookings: boolean;
  hasTicket: boolean;
  eventDuration: number | null;
  itemCollectionDetails: string | null;
  locationType: 'physical' | 'digital' | 'address';
  url: string | null;
  venueId: number;
  addressId: number | null;
  addressLabel: string | null;
  publicationDatetime: string | null;
  bookingAllowedDatetime: string | null;
  image: { url: string; credit: string | null } | null;
  priceCategories: { id: number; label: string; price: number; idAtProvider: string | null }[];
}

type Location = z.input<typeof EventOfferResponse>['location'];

function locationOf(event: GraphEvent): Location {
  if (event.locationType === 'digital') return { type: 'digital', venueId: event.venueId, url: event.url ?? '' };
  if (event.locationType === 'address') {
    return { type: 'address', venueId: event.venueId, addressId: event.addressId ?? 0, addressLabel: event.addressLabel };
  }
  return { type: 'physical', venueId: event.venueId };
}

export function toEventResponse(event: GraphEvent): z.input<typeof EventOfferResponse> {
  return {
    id: event.id,
    name: event.name,
    status: event.status as z.input<typeof EventOfferResponse>['status'],
    accessibility: {
      audioDisabilityCompliant: event.audioDisabilityCompliant,
      mentalDisabilityCompliant: event.mentalDisabilityCompliant,
      motorDisabilityCompliant: event.motorDisabilityCompliant,
      visualDisabilityCompliant: event.visualDisabilityCompliant,
    },
    bookingAllowedDatetime: event.bookingAllowedDatetime,
    bookingContact: event.bookingContact,
    bookingEmail: event.bookingEmail,
    categoryRelatedFields: event.categoryRelatedFields as z.input<typeof EventOfferResponse>['categoryRelatedFields'],
    description: event.description,
    enableDoubleBookings: event.enableDoubleBookings,
    eventDuration: event.eventDuration,
    externalTicketOfficeUrl: event.externalTicketOfficeUrl,
    hasTicket: event.hasTicket,
    idAtProvider: event.idAtProvider,
    image: event.image,
    itemCollectionDetails: event.itemCollectionDetails,
    location: locationOf(event),
    priceCategories: event.priceCategories,
    publicationDate: event.publicationDatetime,
    publicationDatetime: event.publicationDatetime,
    videoUrl: event.videoUrl,
  };
}
