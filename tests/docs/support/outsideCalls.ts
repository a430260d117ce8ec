import { randomBytes } from 'node:crypto';
import { MockAgent } from 'undici';

/**
 * The platform's calls out of the process while the docs' samples run, as its network
 * (`outbound.transport`). Nothing leaves the machine:
 * - 127.0.0.1 and localhost go through;
 * - hosts under example.com, where the demo provider's URLs and the docs' own receivers live, are
 *   answered here as a conforming ticketing system would (see the ticketing guide): a booking call
 *   gets one ticket per place, its barcode 12 hexadecimal characters as the tutorial's stand-in
 *   issues them, and the places left in a pool of 1000; a cancellation or a notification gets 200;
 * - any other host fails at once, as an unreachable one.
 */
export function outsideCalls(): MockAgent {
  const network = new MockAgent();
  network.disableNetConnect();
  network.enableNetConnect(/^(127\.0\.0\.1|localhost)(:\d+)?$/);
  let pool = 1000;
  const system = { take: (places: number) => (pool = Math.max(0, pool - places)) };
  network
    .get((origin) => {
      const { hostname } = new URL(origin);
      return hostname === 'example.com' || hostname.endsWith('.example.com');
    })
    .intercept({ path: () => true, method: () => true })
    .reply((request) => ({
      statusCode: 200,
      data: JSON.stringify(answerAsTicketingSystem(typeof request.body === 'string' ? request.body : '', system)),
      responseOptions: { headers: { 'content-type': 'application/json' } },
    }))
    .persist();
  return network;
}

/** A notification carries `action`, a cancellation `barcodes`; anything else with a quantity asks for tickets. */
function answerAsTicketingSystem(body: string, system: { take: (places: number) => number }): unknown {
  let message: { action?: unknown; barcodes?: unknown; booking_quantity?: unknown };
  try {
    message = JSON.parse(body);
  } catch {
    return {};
  }
  const quantity = message.booking_quantity;
  if (message.action !== undefined || message.barcodes !== undefined || typeof quantity !== 'number') return {};
  const tickets = Array.from({ length: quantity }, () => ({
    barcode: randomBytes(6).toString('hex').toUpperCase(),
    seat: null,
  }));
  return { tickets, remainingQuantity: system.take(quantity) };
}
