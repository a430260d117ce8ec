/**
 * How two spellings of one street compare: accents, case, punctuation and spacing aside,
 * and the common abbreviations written out.
 */
const abbreviations: Record<string, string> = {
  av: 'avenue',
  bd: 'boulevard',
  bld: 'boulevard',
  ch: 'chemin',
  imp: 'impasse',
  pl: 'place',
  r: 'rue',
  rte: 'route',
  st: 'saint',
  ste: 'sainte',
};

export function normalizeStreet(street: string): string {
  const words = street
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
  // A street of signs only ("---") is compared as written, not as an empty name shared by all.
  if (words === '') return street.trim().toLowerCase();
  return words
    .split(' ')
    .map((word) => abbreviations[word] ?? word)
    .join(' ');
}

/**
 * The identity of an address: its street in the municipality. Where the INSEE code is
 * unknown (postal codes beyond the postal data), the city name stands in for it.
 */
export function addressLookupKey(
  street: string,
  municipality: { inseeCode: string; city: string; postalCode: string },
): string {
  const place = municipality.inseeCode || `city:${normalizeStreet(municipality.city)}`;
  return `${normalizeStreet(street)}|${place}|${municipality.postalCode}`;
}
