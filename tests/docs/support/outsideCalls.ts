import { randomBytes } from 'node:crypto';

/**
 * The platform's calls out of the process while the docs' samples run. Nothing leaves the machine:
 * - 127.0.0.1 and localhost (the server itself) go through;
 * - hosts under example.com, where the demo provider's URLs and the docs' own receivers live, are
 *   answered here as a conforming ticketing system would (see the ticketing guide): a booking call
 *   gets one ticket per place, its barcode 12 hexadecimal characters as the tutorial's stand-in
 *   issues them, and the places left in a pool of 1000; a cancellation or a notification gets 200;
 * - any other host fails at once, as an unreachable one.
 * Returns the function that puts the real fetch back.
 */
export function stubOutsideCalls(): () => void {
  const realFetch = globalThis.fetch;
  let pool = 1000;
  globalThis.fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.hostname === '127.0.0.1' || url.hostname === 'localhost') return realFetch(input, init);
    if (url.hostname !== 'example.com' && !url.hostname.endsWith('.example.com')) {
      throw new TypeError('fetch failed', { cause: new Error(`the docs test calls no outside host (${url.host})`) });
    }
    const body = typeof init?.body === 'string' ? init.body : '';
    return Response.json(
      answerAsTicketingSystem(body, {
        take: (places) => (pool = Math.max(0, pool - places)),
      }),
    );
  };
  return () => {
    globalThis.fetch = realFetch;
  };
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
