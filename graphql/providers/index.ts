import { buildSubgraph, type Subgraph } from '../shared/buildSubgraph.js';
import { Address } from './Address.js';
import { AddressResolver } from './addresses/AddressResolver.js';
import { ApiKey } from './ApiKey.js';
import { Offerer } from './Offerer.js';
import { Provider } from './Provider.js';
import { KeySession } from './KeySession.js';
import { PersonSession } from './PersonSession.js';
import { ProviderResolver } from './ProviderResolver.js';
import { providerReferences } from './references.js';
import { Venue } from './Venue.js';
import { VenueProvider } from './VenueProvider.js';
import { VenueResolver } from './VenueResolver.js';
import { AuditResolver } from './staff/AuditResolver.js';
import { JobResolver } from './staff/JobResolver.js';
import { MyApiKeyResolver } from './keys/MyApiKeyResolver.js';
import { RequestLogResolver } from './requests/RequestLogResolver.js';
import { StaffProviderResolver } from './staff/StaffProviderResolver.js';
import { providersInputRules } from './inputRules.js';

export const providerEntities = [Provider, ApiKey, KeySession, PersonSession, Offerer, Venue, VenueProvider, Address];

export function buildProvidersSubgraph(): Subgraph {
  return buildSubgraph({
    name: 'providers',
    resolvers: [
      ProviderResolver,
      VenueResolver,
      AddressResolver,
      StaffProviderResolver,
      JobResolver,
      AuditResolver,
      RequestLogResolver,
      MyApiKeyResolver,
    ],
    inputRules: providersInputRules,
    references: providerReferences,
  });
}
