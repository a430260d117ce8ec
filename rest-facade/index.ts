import { offerAttributeRoutes } from './offerAttributes/routes.js';
import { productOfferRoutes } from './productOffers/routes.js';
import { providerRoutes } from './providers/routes.js';
import type { RouteDefinition } from './route.js';

/** The whole public contract, one module per tag. */
export const routes: RouteDefinition[] = [...providerRoutes, ...productOfferRoutes, ...offerAttributeRoutes];
