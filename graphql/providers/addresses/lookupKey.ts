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
  return street
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .map((word) => abbreviations[word] ?? word)
    .join(' ');
}

export function addressLookupKey(street: string, inseeCode: string, postalCode: string): string {
  return `${normalizeStreet(street)}|${inseeCode}|${postalCode}`;
}
