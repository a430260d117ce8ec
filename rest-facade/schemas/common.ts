import { webUrl as webUrlRule } from '../../graphql/providers/externalUrls.js';
import { z } from '../zod.js';

/** A web URL of 1 to 2083 characters, as the contract's URL fields are (the domain's rule, described). */
export const webUrl = webUrlRule.openapi({
  format: 'uri',
  minLength: 1,
  example: 'https://example.com/ticketing/booking',
});

/** A date-time as the API answers it: ISO 8601, UTC. */
export const dateTime = z.string().openapi({ format: 'date-time', example: '2026-11-22T10:00:00.000Z' });
