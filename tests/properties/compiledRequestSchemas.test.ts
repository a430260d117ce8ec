import { describe, expect, it } from 'vitest';
import { routes } from '../../rest-facade/index.js';
import { requestParsers } from '../../rest-facade/router.js';
import type { z } from '../../rest-facade/zod.js';
import { operationById } from '../fuzz/document.js';
import { aMutation, applyMutation } from '../fuzz/mutations.js';
import { Random } from '../fuzz/random.js';
import { validRequest, type ReferenceData } from '../fuzz/requests.js';
import { FUZZ_NOW, type Pools } from '../fuzz/world.js';

/** Ids that exist nowhere: the schemas judge shapes, not whether a resource exists. */
const pools: Pools = {
  physicalVenueIds: [11, 12],
  digitalVenueIds: [13],
  sirets: ['12345678900011'],
  siren: '123456789',
  addressIds: [21],
  eventIds: [31],
  productIds: [41],
  priceCategoryIds: new Map([[31, [51, 52]]]),
  stockIds: new Map([[31, [61]]]),
  collectiveOfferIds: [71],
  collectiveBookingIds: [81],
  bookingTokens: ['ABCDEF'],
};
const reference: ReferenceData = { domainIds: [1, 2], studentLevelIds: ['COLLEGE_6E'], institutionIds: [91] };
const REQUESTS_PER_ROUTE = 60;

/** What a parse decides: success, the value it gives, or its issues. */
function outcome(schema: z.ZodType, input: unknown) {
  const result = schema.safeParse(input);
  return result.success ? { success: true, data: result.data } : { success: false, issues: result.error.issues };
}

// The router parses each request with its route's schemas compiled by zod (requestParsers). The
// compiled path must decide as the schemas as written do, which the OpenAPI document describes:
// the same value for a valid input, and the same issues (so the same 422) for an invalid one.
describe('the compiled request schemas', () => {
  it('compiles every schema of every route', () => {
    for (const route of routes) {
      const parsers = requestParsers(route);
      for (const part of ['params', 'query', 'body'] as const) {
        const written = route.request?.[part];
        if (!written) continue;
        expect(parsers[part], `${route.operationId} ${part}`).toBeDefined();
        expect(parsers[part], `${route.operationId} ${part}: a compiled clone`).not.toBe(written);
      }
    }
  });

  it.each(routes.map((route) => [route.operationId, route] as const))(
    '%s: decides as its schemas, on valid and on mutated requests',
    (operationId, route) => {
      const operation = operationById.get(operationId);
      if (!operation) throw new Error(`${operationId} is not in the document`);
      const parsers = requestParsers(route);
      const random = new Random(operationId.length * 7919);
      let refused = 0;
      for (let index = 0; index < REQUESTS_PER_ROUTE; index += 1) {
        const valid = validRequest(operation, pools, reference, random, FUZZ_NOW);
        const mutation = index % 2 === 0 ? null : aMutation(operation, valid, random);
        const request = mutation ? applyMutation(valid, mutation) : valid;
        const inputs = { params: request.params, query: request.query, body: request.body ?? {} };
        for (const part of ['params', 'query', 'body'] as const) {
          const written = route.request?.[part];
          const compiled = parsers[part];
          if (!written || !compiled) continue;
          const expected = outcome(written, inputs[part]);
          if (!expected.success) refused += 1;
          expect(outcome(compiled, inputs[part]), `${operationId} ${part} of ${JSON.stringify(inputs[part])}`).toEqual(
            expected,
          );
        }
      }
      // The mutations must have reached the refusals' path, or half of this test checked nothing.
      if (route.request?.body || route.request?.query) expect(refused).toBeGreaterThan(0);
    },
  );
});
