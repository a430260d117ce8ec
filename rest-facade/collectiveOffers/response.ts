import type { z } from '../zod.js';
import type { CollectiveOfferDetail, CollectiveOfferSummary, OfferVenueModel } from './schemas.js';

/** The GraphQL selection the collective routes read, and its translation into the contract's answers. */

export const collectiveBookingFields =
  'id status dateCreated confirmationDate dateUsed reimbursementDate cancellationLimitDate';

export const collectiveOfferSummaryFields = `fragment CollectiveOfferSummaryFields on CollectiveOfferSummary {
  id status displayedStatus venueId startDatetime endDatetime bookings { ${collectiveBookingFields} }
}`;

export const collectiveOfferFields = `fragment CollectiveOfferFields on CollectiveOffer {
  id status displayedStatus venueId startDatetime endDatetime bookings { ${collectiveBookingFields} }
  audioDisabilityCompliant mentalDisabilityCompliant motorDisabilityCompliant visualDisabilityCompliant
  bookingEmails bookingLimitDatetime contactEmail contactPhone dateCreated description domains durationMinutes
  educationalInstitution educationalInstitutionId educationalPriceDetail formats hasBookingLimitDatetimesPassed
  imageCredit imageUrl interventionArea isActive isSoldOut
  location { type isVenueAddress addressId addressLabel comment }
  name nationalProgram { id name } numberOfTickets offerVenue { addressType otherAddress venueId }
  students totalPrice
}`;

interface GraphLocation {
  type: string;
  isVenueAddress: boolean | null;
  addressId: number | null;
  addressLabel: string | null;
  comment: string | null;
}

export type GraphCollectiveOffer = Record<string, unknown> & {
  displayedStatus: string;
  location: GraphLocation;
};

function locationResponse(location: GraphLocation) {
  switch (location.type) {
    case 'ADDRESS':
      return location.isVenueAddress
        ? { type: 'ADDRESS', isVenueAddress: true }
        : {
            type: 'ADDRESS',
            isVenueAddress: false,
            addressId: location.addressId,
            addressLabel: location.addressLabel,
          };
    case 'TO_BE_DEFINED':
      return { type: 'TO_BE_DEFINED', comment: location.comment };
    default:
      return { type: location.type };
  }
}

export function toCollectiveOfferSummary(offer: GraphCollectiveOffer): z.input<typeof CollectiveOfferSummary> {
  const { displayedStatus, id, status, venueId, startDatetime, endDatetime, bookings } = offer;
  return { id, status, offerStatus: displayedStatus, venueId, startDatetime, endDatetime, bookings } as z.input<
    typeof CollectiveOfferSummary
  >;
}

export function toCollectiveOfferDetail(offer: GraphCollectiveOffer): z.input<typeof CollectiveOfferDetail> {
  const { displayedStatus, location, ...rest } = offer;
  return { ...rest, offerStatus: displayedStatus, location: locationResponse(location) } as z.input<
    typeof CollectiveOfferDetail
  >;
}

type OfferVenue = z.output<typeof OfferVenueModel>;

/** The deprecated offerVenue, read as the location it stands for (the location wins when both are sent). */
export function locationFromOfferVenue(offerVenue: OfferVenue) {
  switch (offerVenue.addressType) {
    case 'offererVenue':
      return { type: 'ADDRESS', isVenueAddress: true };
    case 'school':
      return { type: 'SCHOOL' };
    case 'other':
      return { type: 'TO_BE_DEFINED', comment: offerVenue.otherAddress ?? null };
  }
}

/** A parsed body as the graph's input: offerVenue becomes the location when no location is sent. */
export function collectiveOfferInput(body: Record<string, unknown>): Record<string, unknown> {
  const { offerVenue, ...input } = body as Record<string, unknown> & { offerVenue?: OfferVenue | null };
  if (input.location == null && offerVenue) input.location = locationFromOfferVenue(offerVenue);
  return input;
}
