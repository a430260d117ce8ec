import { providerRoutes } from './providers/routes.js';
import type { RouteDefinition } from './route.js';

/** The whole public contract, one module per tag. */
export const routes: RouteDefinition[] = [...providerRoutes];
