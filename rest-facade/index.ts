import { addressRoutes } from './addresses/routes.js';
import { offerAttributeRoutes } from './offerAttributes/routes.js';
import { productOfferRoutes } from './productOffers/routes.js';
import { providerRoutes } from './providers/routes.js';
import { venueRoutes } from './venues/routes.js';
import type { RouteDefinition } from './route.js';

/** The whole public contract, one module per tag. */
export const routes: RouteDefinition[] = [
  ...providerRoutes,
  ...venueRoutes,
  ...addressRoutes,
  ...productOfferRoutes,
  ...offerAttributeRoutes,
];
