import type { ResultOf } from 'gql.tada';
import { graphql } from '../subgraphs/graphql.js';
import type { z } from '../zod.js';
import type { OfferLocation } from './offers.js';

/** What event and product answers share, as the offers subgraph gives it and as the contract shows it. */

/** The fields every offer answer shows. */
export const OfferFields = graphql.offers(`
  fragment OfferFields on Offer {
    id name description status idAtProvider
    audioDisabilityCompliant mentalDisabilityCompliant motorDisabilityCompliant visualDisabilityCompliant
    categoryRelatedFields bookingContact bookingEmail externalTicketOfficeUrl
    enableDoubleBookings itemCollectionDetails
    locationType url venueId addressId addressLabel
    publicationDatetime bookingAllowedDatetime
    image { url credit }
  }`);

type Offer = ResultOf<typeof OfferFields>;

export function offerLocationOf(offer: Offer): z.input<typeof OfferLocation> {
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
export function commonOfferAnswer(offer: Offer) {
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
