import { defineRoute } from '../route.js';
import { idInPath } from '../schemas/inputs.js';
import { graphql } from '../subgraphs/graphql.js';
import { z } from '../zod.js';
import { ProviderResponse, ProviderUpdate, VenueProviderExternalUrlsUpdate } from './schemas.js';

const TAG = 'Providers';

/** The selection of a ProviderResponse. */
const ProviderFields = graphql.providers(`
  fragment ProviderFields on Provider { id name bookingUrl cancelUrl notificationUrl logoUrl }`);

export const getProvider = defineRoute({
  method: 'get',
  path: '/public/providers/v1/provider',
  tag: TAG,
  operationId: 'GetProvider',
  summary: 'Get my provider',
  description: 'The provider your API key belongs to, with the URLs used to reach its ticketing system.',
  subgraph: 'providers',
  document: graphql.providers('query GetProvider { provider { ...ProviderFields } }', [ProviderFields]),
  response: {
    status: 200,
    description: 'Your provider.',
    schema: ProviderResponse,
    select: (data) => data.provider,
  },
});

export const updateProvider = defineRoute({
  method: 'patch',
  path: '/public/providers/v1/provider',
  tag: TAG,
  operationId: 'UpdateProvider',
  summary: 'Update my provider URLs',
  description:
    'Sets the URLs through which the platform books and cancels tickets in your ticketing system and ' +
    'notifies you. Only the fields sent change; null clears one. `bookingUrl` and `cancelUrl` are set together ' +
    'or unset together (400 otherwise), and cannot be unset while your events with tickets have dates ahead at ' +
    'venues without URLs of their own (400 listing those events).',
  subgraph: 'providers',
  document: graphql.providers(
    'mutation UpdateProvider($input: ExternalUrlsInput!) { updateProvider(input: $input) { ...ProviderFields } }',
    [ProviderFields],
  ),
  request: { body: ProviderUpdate },
  variables: ({ body }) => ({ input: body }),
  response: {
    status: 200,
    description: 'Your provider, updated.',
    schema: ProviderResponse,
    select: (data) => data.updateProvider,
  },
  errors: [400],
});

export const updateVenueExternalUrls = defineRoute({
  method: 'patch',
  path: '/public/providers/v1/venues/{venue_id}',
  tag: TAG,
  operationId: 'UpdateVenueExternalUrls',
  summary: "Update a venue's URLs",
  description:
    "Sets a venue's own booking, cancellation and notification URLs: for that venue they take priority " +
    "over your provider's. Only the fields sent change; null clears one. `bookingUrl` and `cancelUrl` are set " +
    'together or unset together (400 otherwise), and cannot be unset while your events with tickets at this ' +
    "venue have dates ahead, unless your provider's own URLs take over (400 listing those events).",
  subgraph: 'providers',
  document: graphql.providers(
    `mutation UpdateVenueExternalUrls($venueId: Int!, $input: ExternalUrlsInput!) {
      updateVenueExternalUrls(venueId: $venueId, input: $input)
    }`,
  ),
  request: { params: z.object({ venue_id: idInPath }), body: VenueProviderExternalUrlsUpdate },
  variables: ({ params, body }) => ({ venueId: params.venue_id, input: body }),
  response: { status: 204, description: 'The URLs are set.' },
  errors: [400, 404],
});

export const providerRoutes = [getProvider, updateProvider, updateVenueExternalUrls];
