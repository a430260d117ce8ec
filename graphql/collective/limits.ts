/** The limits of a collective offer's fields: the graph's rules (inputRules.ts) and the REST schemas read the same ones. */
export const COLLECTIVE_LIMITS = {
  name: 110,
  description: 1500,
  email: 120,
  priceDetail: 1000,
  imageCredit: 200,
  /** An image, in base64 characters (1.5 MiB), as pass Culture's API takes for a collective offer. */
  imageBase64: 2_000_000,
  addressLabel: 200,
  locationComment: 200,
  institutionUai: 20,
  studentLevel: 40,
  interventionAreaItem: 10,
  interventionAreaItems: 120,
  listItems: 20,
  totalPriceEuros: 1_000_000,
  /** Offers archived by one call. */
  archivedPerCall: 100,
} as const;

/** A phone number: at most 20 characters, digits and separators. */
export const PHONE_PATTERN = /^\+?[0-9][0-9 .()-]{5,18}$/;

/** The institution search: the longest text of each filter (the columns' sizes) and the page size. */
export const INSTITUTION_FILTER_MAX_LENGTHS = {
  name: 200,
  institutionType: 60,
  city: 100,
  postalCode: 5,
  uai: 8,
} as const;
/**
 * `limit` is taken up to `max`, but a search answers at most `mostAnswered` institutions, as pass
 * Culture's does (a limit of 23 answers 20).
 */
export const INSTITUTIONS_PER_SEARCH = { byDefault: 20, max: 1000, mostAnswered: 20 } as const;
