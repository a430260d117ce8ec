/** The limits of a collective offer's fields: the REST schemas and the graph's own checks read the same ones. */
export const COLLECTIVE_LIMITS = {
  name: 110,
  description: 1500,
  email: 120,
  phone: 20,
  priceDetail: 1000,
  imageCredit: 200,
  addressLabel: 200,
  locationComment: 200,
  institutionUai: 20,
  studentLevel: 40,
  interventionAreaItem: 10,
  interventionAreaItems: 120,
  listItems: 20,
  totalPriceEuros: 1_000_000,
} as const;

export const PHONE_PATTERN = /^\+?[0-9][0-9 .()-]{5,18}$/;
/** What an e-mail address looks like: one @, no space, a dot in the domain. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
