import { initGraphQLTada } from 'gql.tada';
import type { Quantity } from '../../graphql/offers/dates/types.js';
import type { introspection as bookings } from './bookings.introspection.js';
import type { introspection as collective } from './collective.introspection.js';
import type { introspection as offers } from './offers.introspection.js';
import type { introspection as providers } from './providers.introspection.js';

declare const dateTimeText: unique symbol;

/**
 * A DateTimeISO of an answer: ISO 8601 text in UTC, marked so that the variables' type can tell
 * it from other text (see GraphVariables); it reads as any string.
 */
export type DateTimeText = string & { readonly [dateTimeText]: true };

/**
 * The custom scalars as they travel between the facade and the graph. Answers carry datetimes as
 * ISO 8601 text in UTC; variables take a Date or that text (GraphVariables).
 */
interface Scalars {
  DateTimeISO: DateTimeText;
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

/**
 * A document's variables as the facade may give them: a DateTimeISO as a Date, as well as text.
 * In process the scalar takes the Date as it is; sent to a subgraph service, JSON writes it as
 * the ISO text. Parsing 2500 dates' text again in the graph, after the facade's schemas had
 * parsed them, cost POST dates more than its rules (issue 19). Other text (a String that holds a
 * datetime) stays text: the graph's String refuses a Date.
 */
export type GraphVariables<Variables> = Variables extends DateTimeText
  ? Date | string
  : Variables extends readonly (infer Item)[]
    ? GraphVariables<Item>[]
    : Variables extends object
      ? { [Key in keyof Variables]: GraphVariables<Variables[Key]> }
      : Variables;
