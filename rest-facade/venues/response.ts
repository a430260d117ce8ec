import type { ResultOf } from 'gql.tada';
import { oneOf } from '../graphAnswer.js';
import { VenueTypeEnum } from '../schemas/enums.js';
import { graphql } from '../subgraphs/graphql.js';
import type { z } from '../zod.js';
import type { VenueResponse } from './schemas.js';

/** The fields of a venue the REST answers need, as one fragment for every venue document. */
export const VenueFields = graphql.providers(`
  fragment VenueFields on Venue {
    id createdDatetime legalName publicName activityDomain siret siretComment isVirtual
    audioDisabilityCompliant mentalDisabilityCompliant motorDisabilityCompliant visualDisabilityCompliant
    address { street city postalCode }
    externalUrls { bookingUrl cancelUrl notificationUrl }
  }`);

export function toVenueResponse(venue: ResultOf<typeof VenueFields>): z.input<typeof VenueResponse> {
  return {
    id: venue.id,
    createdDatetime: venue.createdDatetime,
    location: venue.isVirtual
      ? { type: 'digital' }
      : {
          type: 'physical',
          address: venue.address?.street ?? null,
          city: venue.address?.city ?? null,
          postalCode: venue.address?.postalCode ?? null,
        },
    legalName: venue.legalName,
    publicName: venue.publicName,
    activityDomain: oneOf(VenueTypeEnum, venue.activityDomain),
    siret: venue.siret,
    siretComment: venue.siretComment,
    accessibility: {
      audioDisabilityCompliant: venue.audioDisabilityCompliant,
      mentalDisabilityCompliant: venue.mentalDisabilityCompliant,
      motorDisabilityCompliant: venue.motorDisabilityCompliant,
      visualDisabilityCompliant: venue.visualDisabilityCompliant,
    },
    bookingUrl: venue.externalUrls?.bookingUrl ?? null,
    cancelUrl: venue.externalUrls?.cancelUrl ?? null,
    notificationUrl: venue.externalUrls?.notificationUrl ?? null,
  };
}
