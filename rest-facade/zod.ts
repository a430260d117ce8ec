// zod with `.openapi(...)`, the one the domain's rules are built with: the route modules'
// schemas are the OpenAPI document's source.
export { z } from '../graphql/shared/zod.js';
