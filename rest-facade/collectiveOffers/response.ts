import type { ResultOf } from 'gql.tada';
import { oneOf } from '../graphAnswer.js';
import { EacFormatEnum } from '../schemas/enums.js';
import { graphql } from '../subgraphs/graphql.js';
import type { z } from '../zod.js';
import {
  type CollectiveOfferDetail,
  type CollectiveOfferLocationResponse,
  type CollectiveOfferSummary,
  OfferAddressTypeEnum,
  type OfferVenueModel,
} from './schemas.js';

/** The GraphQL selection the collective routes read, and its translation into the contract's answers. */

export const CollectiveBookingFields = graphql.collective(`
  fragment CollectiveBookingFields on CollectiveBooking {
    id status dateCreated confirmationDate dateUsed reimbursementDate cancellationLimitDate
  }`);

export const CollectiveOfferSummaryFields = graphql.collective(
  `fragment CollectiveOfferSummaryFields on CollectiveOfferSummary {
    id status displayedStatus venueId startDatetime endDatetime bookings { ...CollectiveBookingFields }
  }`,
  [CollectiveBookingFields],
);

export const CollectiveOfferFields = graphql.collective(
  `fragment CollectiveOfferFields on CollectiveOffer {
    id status offerStatus: displayedStatus venueId startDatetime endDatetime bookings { ...CollectiveBookingFields }
    audioDisabilityCompliant mentalDisabilityCompliant motorDisabilityCompliant visualDisabilityCompliant
    bookingEmails bookingLimitDatetime contactEmail contactPhone dateCreated description domains durationMinutes
    educationalInstitution educationalInstitutionId educationalPriceDetail formats hasBookingLimitDatetimesPassed
    imageCredit imageUrl interventionArea isActive isSoldOut
    location { type isVenueAddress addressId addressLabel comment }
    name nationalProgram { id name } numberOfTickets offerVenue { addressType otherAddress venueId }
    students totalPrice
  }`,
  [CollectiveBookingFields],
);

type CollectiveOffer = ResultOf<typeof CollectiveOfferFields>;

function locationResponse(location: CollectiveOffer['location']): z.input<typeof CollectiveOfferLocationResponse> {
  switch (location.type) {
    case 'ADDRESS':
      return location.isVenueAddress
        ? { type: 'ADDRESS', isVenueAddress: true }
        : {
            type: 'ADDRESS',
            isVenueAddress: false,
            addressId: location.addressId ?? 0,
            addressLabel: location.addressLabel,
          };
    case 'TO_BE_DEFINED':
      return { type: 'TO_BE_DEFINED', comment: location.comment };
    case 'SCHOOL':
      return { type: 'SCHOOL' };
    default:
      throw new Error(`The graph answered the location type ${JSON.stringify(location.type)}`);
  }
}

export function toCollectiveOfferSummary(
  offer: ResultOf<typeof CollectiveOfferSummaryFields>,
): z.input<typeof CollectiveOfferSummary> {
  const { displayedStatus, id, status, venueId, startDatetime, endDatetime, bookings } = offer;
  return {
    id,
    status,
    offerStatus: displayedStatus,
    venueId,
    startDatetime,
    endDatetime,
    bookings,
  };
}

/** The selection is in the answer's order, and each key replaced keeps its place in it. */
export function toCollectiveOfferDetail(offer: CollectiveOffer): z.input<typeof CollectiveOfferDetail> {
  return {
    ...offer,
    formats: offer.formats.map((format) => oneOf(EacFormatEnum, format)),
    location: locationResponse(offer.location),
    offerVenue: { ...offer.offerVenue, addressType: oneOf(OfferAddressTypeEnum, offer.offerVenue.addressType) },
  };
}

type OfferVenue = z.output<typeof OfferVenueModel>;

/** The deprecated offerVenue, read as the location it stands for (the location wins when both are sent). */
export function locationFromOfferVenue(offerVenue: OfferVenue) {
  switch (offerVenue.addressType) {
    case 'offererVenue':
      // At the address of the venue it names (one of the caller's: 404 otherwise; the schema requires it).
      return { type: 'ADDRESS', isVenueAddress: true, venueId: offerVenue.venueId ?? null };
    case 'school':
      return { type: 'SCHOOL' };
    case 'other':
      return { type: 'TO_BE_DEFINED', comment: offerVenue.otherAddress ?? null };
  }
}

/** A parsed body as the graph's input: offerVenue becomes the location when no location is sent. */
export function collectiveOfferInput<Body extends { offerVenue?: OfferVenue | null; location?: unknown }>(body: Body) {
  const { offerVenue, ...input } = body;
  return input.location == null && offerVenue ? { ...input, location: locationFromOfferVenue(offerVenue) } : input;
}
