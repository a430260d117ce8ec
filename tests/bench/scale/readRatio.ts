/**
 * How many entries a list answer holds: the length of a top-level array, or of the one array
 * an object answer wraps (`{ "products": [...] }`). Null for any other answer (one offer, a token).
 */
export function itemsAnswered(body: unknown): number | null {
  if (Array.isArray(body)) return body.length;
  if (typeof body !== 'object' || body === null) return null;
  const lists = Object.values(body).filter((value): value is unknown[] => Array.isArray(value));
  return lists.length === 1 ? lists[0].length : null;
}

export interface ReadSample {
  requestsPerSecond: number;
  /** The entries the answer held (itemsAnswered), when it is a list. */
  items: number | null;
}

/**
 * The figure at scale against today's. A list whose answer is longer at scale (the collective
 * offers stop at 500, and today's largest provider has fewer) is compared per entry answered:
 * the target is about what the data's size costs, and a longer answer costs its length at any
 * size. Any other read compares its throughput as it is: an answer as long or shorter at scale
 * (a typical provider is another provider at each size) has fixed costs that a division by a
 * handful of entries would turn into nonsense.
 */
export function readRatio(today: ReadSample, atScale: ReadSample): { ratio: number; perItem: boolean } {
  if (today.requestsPerSecond <= 0) return { ratio: 0, perItem: false };
  if (today.items !== null && atScale.items !== null && today.items > 0 && atScale.items > today.items) {
    return {
      ratio: (atScale.requestsPerSecond * atScale.items) / (today.requestsPerSecond * today.items),
      perItem: true,
    };
  }
  return { ratio: atScale.requestsPerSecond / today.requestsPerSecond, perItem: false };
}
