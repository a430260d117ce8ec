import type { BudgetState } from './rateLimit.js';

// What the server's own middleware leaves on `res.locals` (the facade's are in rest-facade/).
declare global {
  namespace Express {
    interface Locals {
      /** Where the key stands once the rate limiter counted this request. */
      rateLimit?: BudgetState;
      /** The JSON body's bytes as sent, kept by the body reader for the request log. */
      rawRequestBody?: Buffer;
    }
  }
}
