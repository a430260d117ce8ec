import { addressRoutes } from './addresses/routes.js';
import { bookingRoutes } from './bookings/routes.js';
import { collectiveBookingRoutes } from './collectiveBookings/routes.js';
import { collectiveOfferAttributeRoutes } from './collectiveOfferAttributes/routes.js';
import { collectiveOfferRoutes } from './collectiveOffers/routes.js';
import { eventOfferPriceCategoryRoutes } from './eventOfferPriceCategories/routes.js';
import { eventOfferRoutes } from './eventOffers/routes.js';
import { eventOfferStockRoutes } from './eventOfferStocks/routes.js';
import { offerAttributeRoutes } from './offerAttributes/routes.js';
import { imageRoutes } from './images/routes.js';
import { productOfferBulkRoutes } from './productOfferBulk/routes.js';
import { productOfferRoutes } from './productOffers/routes.js';
import { providerRoutes } from './providers/routes.js';
import { venueRoutes } from './venues/routes.js';
import type { AnyRoute, SomeRoute } from './route.js';

/** The whole public contract, one module per tag, each route with its own types. */
const typedRoutes = [
  ...providerRoutes,
  ...venueRoutes,
  ...addressRoutes,
  ...productOfferBulkRoutes,
  ...productOfferRoutes,
  ...eventOfferRoutes,
  ...eventOfferPriceCategoryRoutes,
  ...eventOfferStockRoutes,
  ...imageRoutes,
  ...offerAttributeRoutes,
  ...bookingRoutes,
  // Before the offers: /v2/collective/offers/formats would otherwise read as an offer id.
  ...collectiveOfferAttributeRoutes,
  ...collectiveOfferRoutes,
  ...collectiveBookingRoutes,
];

/** Any route of the contract, with its own types. */
export type TypedRoute = (typeof typedRoutes)[number];

export type RoutesByOperationId = { [Route in TypedRoute as Route['operationId']]: Route };

/** Each route by its operationId, with its types: what the typed test client calls. */
export const routesByOperationId = Object.fromEntries(
  typedRoutes.map((route) => [route.operationId, route]),
  // Object.fromEntries cannot say which route is under which key; the entries above are exactly that.
) as RoutesByOperationId;

/**
 * Routes for a table of routes that differ in their documents, inputs and answers: their types
 * forgotten (see AnyRoute). Tables are assembled here, and only here do types go.
 */
export function forgetTypes(typed: readonly SomeRoute[]): AnyRoute[] {
  return [...typed] as AnyRoute[];
}

/** The table the router, the document generator and the tests walk. */
export const routes: AnyRoute[] = forgetTypes(typedRoutes);
