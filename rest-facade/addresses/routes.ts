import { defineRoute } from '../route.js';
import { idInPath, numberInput } from '../schemas/inputs.js';
import { graphql } from '../subgraphs/graphql.js';
import { z } from '../zod.js';
import { AddressFields } from './response.js';
import { AddressModel, AddressResponse, SearchAddressResponse, searchQuery } from './schemas.js';

const TAG = 'Addresses';

export const createAddress = defineRoute({
  method: 'post',
  path: '/public/offers/v1/addresses',
  tag: TAG,
  operationId: 'CreateAddress',
  summary: 'Create an address',
  description:
    'Records an address where offers can take place, or returns the record of the same address. The ' +
    'municipality must exist for the postal code. The address service is asked first: the address it finds ' +
    'is recorded with its BAN id and its coordinates, even when others were sent. Coordinates sent are ' +
    'recorded as given only when the service cannot place the address; without them that is a 400.',
  subgraph: 'providers',
  document: graphql.providers(
    'mutation CreateAddress($input: AddressInput!) { createAddress(input: $input) { ...AddressFields } }',
    [AddressFields],
  ),
  request: { body: AddressModel },
  variables: ({ body }) => ({ input: body }),
  response: {
    status: 200,
    description: 'The address.',
    schema: AddressResponse,
    select: (data) => data.createAddress,
  },
  errors: [400],
});

export const searchAddresses = defineRoute({
  method: 'get',
  path: '/public/offers/v1/addresses/search',
  tag: TAG,
  operationId: 'SearchAddresses',
  summary: 'Search addresses',
  description: 'Recorded addresses matching a street, a city and a postal code, and the coordinates when given.',
  subgraph: 'providers',
  document: graphql.providers(
    'query SearchAddresses($input: AddressInput!) { searchAddresses(input: $input) { ...AddressFields } }',
    [AddressFields],
  ),
  request: {
    query: z.object({
      street: searchQuery.street,
      city: searchQuery.city,
      postalCode: searchQuery.postalCode,
      latitude: numberInput(searchQuery.latitude.optional()),
      longitude: numberInput(searchQuery.longitude.optional()),
    }),
  },
  variables: ({ query }) => ({ input: query }),
  response: {
    status: 200,
    description: 'The matching addresses (possibly none).',
    schema: SearchAddressResponse,
    select: (data) => ({ addresses: data.searchAddresses }),
  },
  errors: [400],
});

export const getAddress = defineRoute({
  method: 'get',
  path: '/public/offers/v1/addresses/{address_id}',
  tag: TAG,
  operationId: 'GetAddress',
  summary: 'Get an address',
  description: 'A recorded address.',
  subgraph: 'providers',
  document: graphql.providers('query GetAddress($id: Int!) { address(id: $id) { ...AddressFields } }', [AddressFields]),
  request: { params: z.object({ address_id: idInPath }) },
  variables: ({ params }) => ({ id: params.address_id }),
  response: {
    status: 200,
    description: 'The address.',
    schema: AddressResponse,
    select: (data) => data.address,
  },
  errors: [404],
});

export const addressRoutes = [createAddress, searchAddresses, getAddress];
