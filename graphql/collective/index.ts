import type { AppEnv } from '../../platform/appEnv.js';
import { buildSubgraph, type Subgraph } from '../shared/buildSubgraph.js';
import { AdageMockResolver } from './AdageMockResolver.js';
import { collectiveOfferForCaller } from './access.js';
import { CollectiveBooking } from './CollectiveBooking.js';
import { CollectiveBookingResolver } from './CollectiveBookingResolver.js';
import { CollectiveOffer } from './CollectiveOffer.js';
import { CollectiveOfferResolver } from './CollectiveOfferResolver.js';
import { CollectiveReviewResolver } from './CollectiveReviewResolver.js';
import { referenceEntities } from './reference/entities.js';
import { ReferenceResolver } from './reference/ReferenceResolver.js';
import { collectiveInputRules } from './inputRules.js';

export const collectiveEntities = [CollectiveOffer, CollectiveBooking, ...referenceEntities];

/** The school-platform mocks exist outside production only: in production they are not in the schema at all. */
export function buildCollectiveSubgraph(appEnv: AppEnv = 'development'): Subgraph {
  const resolvers = [
    CollectiveOfferResolver,
    CollectiveReviewResolver,
    CollectiveBookingResolver,
    ReferenceResolver,
  ] as const;
  return buildSubgraph({
    name: 'collective',
    resolvers: appEnv === 'production' ? [...resolvers] : [...resolvers, AdageMockResolver],
    inputRules: collectiveInputRules,
    references: {
      CollectiveOffer: {
        __resolveReference: (reference, context) => collectiveOfferForCaller(context, reference.id),
      },
    },
  });
}
