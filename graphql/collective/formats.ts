/** The formats a collective offer takes (EacFormat of the contract), in the contract's order. */
export const EAC_FORMATS = [
  'Atelier de pratique',
  'Concert',
  'Conférence, rencontre',
  'Festival, salon, congrès',
  'Projection audiovisuelle',
  'Représentation',
  'Visite guidée',
  'Visite libre',
] as const;

export type EacFormat = (typeof EAC_FORMATS)[number];
