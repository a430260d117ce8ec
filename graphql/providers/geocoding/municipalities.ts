/**
 * Municipality lookup over the postal service's list of postal codes (npm `codes-postaux`,
 * loaded once when this module is imported, about 35,000 rows).
 *
 * A provider's city is compared with both the official name (`Saint-Étienne`,
 * `Paris 1er Arrondissement`) and the postal label (`ST ETIENNE`, `PARIS`), after
 * normalizing case, accents, punctuation and the usual abbreviations, so that `paris`,
 * `PARIS` and `Paris 1er` all name 75001, and `st etienne` names 42000.
 */
import codesPostaux, { type CodePostalEntry } from 'codes-postaux';
import type { Municipality } from '../../shared/geocoder.js';

/** Abbreviations expanded before comparing names (`St-Étienne`, `Ste-Foy`). */
const ABBREVIATIONS: Readonly<Record<string, string>> = { st: 'saint', ste: 'sainte' };
/** Leading articles that a provider may leave out (`Baux-de-Provence` for `Les Baux-de-Provence`). */
const ARTICLES = new Set(['le', 'la', 'les', 'l']);
const POSTAL_CODE = /^\d{5}$/;
const ARRONDISSEMENT_SUFFIX = /\s+\d+(?:er|e|ème|eme)\s+arrondissement$/i;

/**
 * Comparison form of a city name: lower case, no accents, words separated by one space,
 * `st`/`ste` expanded, ordinals and leading zeros reduced to the number (`1er`, `01` -> `1`),
 * a postal label's trailing `(LES)` moved in front, anything from `CEDEX` on dropped.
 */
export function normalizeCityName(name: string): string {
  const words = name
    .toLowerCase()
    .replace(/œ/g, 'oe')
    .replace(/æ/g, 'ae')
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .replace(/^(.*?)\s*\((le|la|les|l)\)\s*$/, '$2 $1')
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
  const cedex = words.indexOf('cedex');
  return (cedex === -1 ? words : words.slice(0, cedex))
    .map((word) => {
      const ordinal = /^0*(\d+)(?:er|re|e|eme|nd)?$/.exec(word);
      if (ordinal) return ordinal[1];
      return ABBREVIATIONS[word] ?? word;
    })
    .join(' ');
}

/** Every comparison form under which an entry may be named. */
function namesOf(entry: CodePostalEntry): Set<string> {
  const names = new Set<string>();
  for (const raw of [entry.nomCommune, entry.libelleAcheminement]) {
    const name = normalizeCityName(raw);
    names.add(name);
    // `paris 1 arrondissement` -> `paris 1` -> `paris`; the postal label `paris 16` -> `paris`.
    const withoutWord = name.replace(/ arrondissement$/, '');
    names.add(withoutWord);
    names.add(withoutWord.replace(/ \d+$/, ''));
  }
  for (const name of [...names]) {
    const [first, ...rest] = name.split(' ');
    if (ARTICLES.has(first) && rest.length > 0) names.add(rest.join(' '));
  }
  names.delete('');
  return names;
}

/** `75`, `2A`, `974`: overseas departments and collectivities have three-digit codes. */
export function departmentCodeOf(inseeCode: string): string {
  return inseeCode.startsWith('97') || inseeCode.startsWith('98') ? inseeCode.slice(0, 3) : inseeCode.slice(0, 2);
}

function toMunicipality(entry: CodePostalEntry): Municipality {
  return {
    inseeCode: entry.codeCommune,
    name: entry.nomCommune,
    city: entry.nomCommune.replace(ARRONDISSEMENT_SUFFIX, ''),
    postalCode: entry.codePostal,
    departmentCode: departmentCodeOf(entry.codeCommune),
  };
}

/** Whether the postal code serves at least one municipality. */
export function isKnownPostalCode(postalCode: string): boolean {
  return entriesOf(postalCode).length > 0;
}

function entriesOf(postalCode: string): CodePostalEntry[] {
  // The package indexes a plain object: `__proto__` or `constructor` would return non-arrays.
  if (!POSTAL_CODE.test(postalCode)) return [];
  const entries = codesPostaux.find(postalCode);
  return Array.isArray(entries) ? entries : [];
}

/**
 * The municipality of `postalCode` that `city` names, or null when the postal code is
 * unknown or serves no municipality of that name. An exact official name wins over a match
 * through the postal label (where one label may cover a delegated former municipality).
 */
export function findMunicipality(city: string, postalCode: string): Municipality | null {
  const wanted = normalizeCityName(city);
  if (wanted === '') return null;
  const entries = entriesOf(postalCode);
  const exact = entries.find((entry) => normalizeCityName(entry.nomCommune) === wanted);
  const match = exact ?? entries.find((entry) => namesOf(entry).has(wanted));
  if (match) return toMunicipality(match);
  return entries.length === 0 ? unlistedOverseasMunicipality(city, postalCode) : null;
}

/**
 * The postal data covers France without its 98 postal codes (New Caledonia, French
 * Polynesia, Wallis and Futuna, Monaco), which the contract accepts: there the municipality
 * is taken as given, since nothing here can check it. Its INSEE code is unknown.
 */
function unlistedOverseasMunicipality(city: string, postalCode: string): Municipality | null {
  if (!/^(98000|98[678]\d{2})$/.test(postalCode)) return null;
  const name = city.trim().replace(/\s+/g, ' ');
  return { inseeCode: '', name, city: name, postalCode, departmentCode: postalCode.slice(0, 3) };
}
