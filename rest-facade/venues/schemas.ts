import { dateTime } from '../schemas/common.js';
import { VenueTypeEnum } from '../schemas/enums.js';
import { z } from '../zod.js';

export const OffererResponse = z
  .object({
    id: z.number().int(),
    createdDatetime: dateTime,
    name: z.string(),
    siren: z.string(),
    allowedOnAdage: z
      .boolean()
      .openapi({ description: 'Whether the offerer may publish collective offers to schools.' }),
  })
  .openapi('OffererResponse');

export const VenuePhysicalLocation = z
  .object({
    type: z.literal('physical'),
    address: z.string().nullable(),
    city: z.string().nullable(),
    postalCode: z.string().nullable(),
  })
  .openapi('VenuePhysicalLocation');

export const VenueDigitalLocation = z.object({ type: z.literal('digital') }).openapi('VenueDigitalLocation');

export const PartialAccessibility = z
  .object({
    audioDisabilityCompliant: z.boolean().nullable(),
    mentalDisabilityCompliant: z.boolean().nullable(),
    motorDisabilityCompliant: z.boolean().nullable(),
    visualDisabilityCompliant: z.boolean().nullable(),
  })
  .openapi('PartialAccessibility', { description: 'Unknown (null) for digital venues.' });

export const VenueResponse = z
  .object({
    id: z.number().int(),
    createdDatetime: dateTime,
    location: z.discriminatedUnion('type', [VenuePhysicalLocation, VenueDigitalLocation]),
    legalName: z.string(),
    publicName: z.string().nullable(),
    activityDomain: VenueTypeEnum,
    siret: z.string().nullable(),
    siretComment: z.string().nullable(),
    accessibility: PartialAccessibility,
    bookingUrl: z.string().nullable(),
    cancelUrl: z.string().nullable(),
    notificationUrl: z.string().nullable(),
  })
  .openapi('VenueResponse');

export const GetOffererVenuesResponse = z
  .object({ offerer: OffererResponse, venues: z.array(VenueResponse) })
  .openapi('GetOffererVenuesResponse');

/** The fields of a venue the REST answers need, as one fragment for every venue document. */
export const venueFragment = `
  fragment VenueFields on Venue {
    id createdDatetime legalName publicName activityDomain siret siretComment isVirtual
    audioDisabilityCompliant mentalDisabilityCompliant motorDisabilityCompliant visualDisabilityCompliant
    address { street city postalCode }
    externalUrls { bookingUrl cancelUrl notificationUrl }
  }`;

interface GraphVenue {
  id: number;
  createdDatetime: string;
  legalName: string;
  publicName: string | null;
  activityDomain: string;
  siret: string | null;
  siretComment: string | null;
  isVirtual: boolean;
  audioDisabilityCompliant: boolean | null;
  mentalDisabilityCompliant: boolean | null;
  motorDisabilityCompliant: boolean | null;
  visualDisabilityCompliant: boolean | null;
  address: { street: string | null; city: string; postalCode: string } | null;
  externalUrls: { bookingUrl: string | null; cancelUrl: string | null; notificationUrl: string | null } | null;
}

export function toVenueResponse(venue: GraphVenue): z.input<typeof VenueResponse> {
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
    activityDomain: venue.activityDomain as z.input<typeof VenueTypeEnum>,
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

export type { GraphVenue };
