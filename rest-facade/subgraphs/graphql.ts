import { initGraphQLTada } from 'gql.tada';
import type { Quantity } from '../../graphql/offers/dates/types.js';
import type { introspection as bookings } from './bookings.introspection.js';
import type { introspection as collective } from './collective.introspection.js';
import type { introspection as offers } from './offers.introspection.js';
import type { introspection as providers } from './providers.introspection.js';

/**
 * The custom scalars as they travel between the facade and the graph: datetimes as ISO 8601
 * text in UTC both ways (the facade turns parsed Dates into text before sending them).
 */
interface Scalars {
  DateTimeISO: string;
  JSONObject: Record<string, unknown>;
  Quantity: Quantity;
}

/**
 * One `graphql` function per subgraph: a document written with it is checked against that
 * subgraph's schema by tsc and carries its result and variables types. Fragments are not masked:
 * the facade maps whole answers, it has no components to keep apart.
 */
export const graphql = {
  providers: initGraphQLTada<{ introspection: providers; scalars: Scalars; disableMasking: true }>(),
  offers: initGraphQLTada<{ introspection: offers; scalars: Scalars; disableMasking: true }>(),
  bookings: initGraphQLTada<{ introspection: bookings; scalars: Scalars; disableMasking: true }>(),
  collective: initGraphQLTada<{ introspection: collective; scalars: Scalars; disableMasking: true }>(),
};
