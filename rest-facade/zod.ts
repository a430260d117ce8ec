import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

// Adds `.openapi(...)` to zod schemas: the route modules' schemas are the OpenAPI document's source.
extendZodWithOpenApi(z);

export { z };
