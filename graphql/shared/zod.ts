import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

// The domain's rules are zod schemas that the REST facade describes for its OpenAPI document
// (`.openapi(...)`). zod copies a method onto each schema when the schema is built, so the
// method must exist before the graph builds its rules: every schema of graphql/ and
// rest-facade/ is made with this `z`.
extendZodWithOpenApi(z);

export { z };
