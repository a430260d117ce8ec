import type { ReferenceResolvers } from '../shared/buildSubgraph.js';
import { providerInScope, venueInScope } from './access.js';

/** How other subgraphs' references to providers and venues are loaded, within the caller's scope. */
export const providerReferences: ReferenceResolvers = {
  Provider: {
    __resolveReference: (reference, context) => providerInScope(context, reference.id),
  },
  Venue: {
    __resolveReference: (reference, context) => venueInScope(context.em, context.caller, reference.id),
  },
};
