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
import type { RouteDefinition } from './route.js';

/** The whole public contract, one module per tag. */
export const routes: RouteDefinition[] = [
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
