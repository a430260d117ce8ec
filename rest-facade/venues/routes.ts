import { sirenRule, siretRule } from '../../graphql/providers/inputRules.js';
import { defineRoute } from '../route.js';
import { graphql } from '../subgraphs/graphql.js';
import { z } from '../zod.js';
import { toVenueResponse, VenueFields } from './response.js';
import { GetOffererVenuesResponse, VenueResponse } from './schemas.js';

const TAG = 'Venues';

export const getOffererVenues = defineRoute({
  method: 'get',
  path: '/public/offers/v1/offerer_venues',
  tag: TAG,
  operationId: 'GetOffererVenues',
  summary: 'Get my offerers and venues',
  description: 'The venues your API key may act on, grouped by the offerer that owns them.',
  subgraph: 'providers',
  document: graphql.providers(
    `query GetOffererVenues($siren: String) {
      offererVenues(siren: $siren) { offerer { id createdDatetime name siren allowedOnAdage } venues { ...VenueFields } }
    }`,
    [VenueFields],
  ),
  request: {
    query: z.object({
      siren: sirenRule.optional().openapi({
        description: 'Only the venues of the offerer with this SIREN (or New Caledonian RIDET).',
        example: '123456782',
      }),
    }),
  },
  variables: ({ query }) => ({ siren: query.siren ?? null }),
  response: {
    status: 200,
    description: 'The offerers and their venues.',
    schema: z.array(GetOffererVenuesResponse).openapi('GetOfferersVenuesResponse'),
    select: (data) =>
      data.offererVenues.map(({ offerer, venues }) => ({
        offerer,
        venues: venues.map(toVenueResponse),
      })),
  },
});

export const getVenueBySiret = defineRoute({
  method: 'get',
  path: '/public/offers/v1/venues/{siret}',
  tag: TAG,
  operationId: 'GetVenueBySiret',
  summary: 'Get a venue by SIRET',
  description:
    'A venue your API key may act on, by its SIRET (14 digits) or, in New Caledonia, its RIDET (NC, 10 digits, XX). ' +
    'Any other form is a 422.',
  subgraph: 'providers',
  document: graphql.providers(
    'query GetVenueBySiret($siret: String!) { venueBySiret(siret: $siret) { ...VenueFields } }',
    [VenueFields],
  ),
  request: {
    params: z.object({
      siret: siretRule.openapi({ example: '12345678200010' }),
    }),
  },
  variables: ({ params }) => ({ siret: params.siret }),
  response: {
    status: 200,
    description: 'The venue.',
    schema: VenueResponse,
    select: (data) => toVenueResponse(data.venueBySiret),
  },
  errors: [404],
});

export const venueRoutes = [getOffererVenues, getVenueBySiret];
