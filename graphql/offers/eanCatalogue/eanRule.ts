/**
 * Whether a catalogue product may be sold by its EAN alone. A rule on data only (no entity, no
 * database), so that the portal's test-data page sorts the catalogue by the server's own rule.
 */

/** The only categories a product may be put on sale in by its EAN alone. */
export const SALEABLE_BY_EAN = new Set([
  'LIVRE_PAPIER',
  'SUPPORT_PHYSIQUE_MUSIQUE_CD',
  'SUPPORT_PHYSIQUE_MUSIQUE_VINYLE',
]);

export type EanRejection = 'notFound' | 'subcategoryNotAllowed' | 'notCompliantWithCgu';

/** Why a catalogue product cannot be sold by EAN, or null when it can. Unknown EANs are not found. */
export function eanRejectionOf(product: { category: string; compliant: boolean } | undefined): EanRejection | null {
  if (!product) return 'notFound';
  if (!SALEABLE_BY_EAN.has(product.category)) return 'subcategoryNotAllowed';
  if (!product.compliant) return 'notCompliantWithCgu';
  return null;
}
