import { URL_MAX_LENGTH } from '../../graphql/providers/externalUrls.js';
import { z } from '../zod.js';

/** A web URL of 1 to 2083 characters, as the contract's URL fields are. */
export const webUrl = z
  .url({ protocol: /^https?$/, error: 'Input should be a valid URL' })
  .max(URL_MAX_LENGTH, `URL should have at most ${URL_MAX_LENGTH} characters`)
  // An empty string is already not a URL: one issue, not two.
  .openapi({ format: 'uri', minLength: 1, example: 'https://example.com/ticketing/booking' });

/** A date-time as the API answers it: ISO 8601, UTC. */
export const dateTime = z.string().openapi({ format: 'date-time', example: '2026-11-22T10:00:00.000Z' });
