/**
 * The programme's size, as issue 41 gives it, and how its rows spread over providers: offers and
 * collective offers fall on providers by a Zipf law (rank r weighs 1/r), so that the largest
 * provider holds about a tenth of everything and the median one a handful of offers, as in life.
 * `factor` scales every count: 1 is the programme, 0.01 today's bench (100,000 bookings).
 */
export interface ScaleShape {
  factor: number;
  providers: number;
  offers: number;
  /** Dates per event; a product has one stock. Events are 60 % of the offers. */
  datesPerEvent: number;
  eventShare: number;
  /** Bookings spread at random over every stock: 10 million at the programme's size. */
  bookings: number;
  collectiveOffers: number;
  /** Beneficiaries per provider: one for every 20 of its bookings, at least one. */
  bookingsPerBeneficiary: number;
}

export const PROGRAMME = {
  providers: 30_000,
  offers: 1_000_000,
  bookings: 10_000_000,
  collectiveOffers: 200_000,
} as const;

export function scaleShape(factor: number): ScaleShape {
  const count = (total: number, least: number) => Math.max(least, Math.round(total * factor));
  return {
    factor,
    providers: count(PROGRAMME.providers, 3),
    offers: count(PROGRAMME.offers, 30),
    // 600,000 events with 16 dates and 400,000 products with one stock: 10,000,000 stocks.
    datesPerEvent: 16,
    eventShare: 0.6,
    bookings: count(PROGRAMME.bookings, 300),
    collectiveOffers: count(PROGRAMME.collectiveOffers, 6),
    bookingsPerBeneficiary: 20,
  };
}

/** A small deterministic generator (mulberry32): the same factor builds the same database. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * Draws provider ranks (1-based) by the Zipf law: the cumulative weights once, then a binary
 * search per draw.
 */
export function zipfDraw(providers: number, random: () => number): () => number {
  const cumulative = new Float64Array(providers);
  let sum = 0;
  for (let rank = 1; rank <= providers; rank += 1) {
    sum += 1 / rank;
    cumulative[rank - 1] = sum;
  }
  return () => {
    const target = random() * sum;
    let low = 0;
    let high = providers - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (cumulative[middle] < target) low = middle + 1;
      else high = middle;
    }
    return low + 1;
  };
}
