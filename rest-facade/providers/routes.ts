import { defineRoute } from '../route.js';
import { ProviderResponse } from './schemas.js';

const providerFields = 'id name bookingUrl cancelUrl notificationUrl logoUrl';

export const getProvider = defineRoute({
  method: 'get',
  path: '/public/providers/v1/provider',
  tag: 'Providers',
  operationId: 'GetProvider',
  summary: 'Get my provider',
  description: 'The provider your API key belongs to, with the URLs used to reach its ticketing system.',
  subgraph: 'providers',
  document: `query GetProvider { provider { ${providerFields} } }`,
  response: {
    status: 200,
    description: 'Your provider.',
    schema: ProviderResponse,
    select: (data) => data.provider,
  },
});

export const providerRoutes = [getProvider];
