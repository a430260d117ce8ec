/** What event and product answers share, as the offers subgraph gives it and as the contract shows it. */

/** The selection of the fields every offer answer shows. */
export const offerFieldsSelection = `
    id name description status idAtProvider
    audioDisabilityCompliant mentalDisabilityCompliant motorDisabilityCompliant visualDisabilityCompliant
    categoryRelatedFields bookingContact bookingEmail externalTicketOfficeUrl
    enableDoubleBookings itemCollectionDetails
    locationType url venueId addressId addressLabel
    publicationDatetime bookingAllowedDatetime
    image { url credit }`;

export interface GraphOffer {
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
  enableDoubleBookings: boolean;
  itemCollectionDetails: string | null;
  locationType: 'physical' | 'digital' | 'address';
  url: string | null;
  venueId: number;
  addressId: number | null;
  addressLabel: string | null;
  publicationDatetime: string | null;
  bookingAllowedDatetime: string | null;
  image: { url: string; credit: string | null } | null;
}

type OfferLocationAnswer =
  | { type: 'physical'; venueId: number }
  | { type: 'digital'; venueId: number; url: string }
  | { type: 'address'; venueId: number; addressId: number; addressLabel: string | null };

export function offerLocationOf(offer: GraphOffer): OfferLocationAnswer {
  if (offer.locationType === 'digital') return { type: 'digital', venueId: offer.venueId, url: offer.url ?? '' };
  if (offer.locationType === 'address') {
    return {
      type: 'address',
      venueId: offer.venueId,
      addressId: offer.addressId ?? 0,
      addressLabel: offer.addressLabel,
    };
  }
  return { type: 'physical', venueId: offer.venueId };
}

/** The fields of an offer answer that events and products share. */
export function commonOfferAnswer(offer: GraphOffer) {
  return {
    id: offer.id,
    name: offer.name,
    status: offer.status,
    accessibility: {
      audioDisabilityCompliant: offer.audioDisabilityCompliant,
      mentalDisabilityCompliant: offer.mentalDisabilityCompliant,
      motorDisabilityCompliant: offer.motorDisabilityCompliant,
      visualDisabilityCompliant: offer.visualDisabilityCompliant,
    },
    bookingAllowedDatetime: offer.bookingAllowedDatetime,
    bookingContact: offer.bookingContact,
    bookingEmail: offer.bookingEmail,
    categoryRelatedFields: offer.categoryRelatedFields,
    description: offer.description,
    enableDoubleBookings: offer.enableDoubleBookings,
    externalTicketOfficeUrl: offer.externalTicketOfficeUrl,
    idAtProvider: offer.idAtProvider,
    image: offer.image,
    itemCollectionDetails: offer.itemCollectionDetails,
    location: offerLocationOf(offer),
    publicationDatetime: offer.publicationDatetime,
  };
}
