// The package ships no types. It is CommonJS: `import codesPostaux from 'codes-postaux'`.
declare module 'codes-postaux' {
  /** One (postal code, municipality) pair of the postal service's official list. */
  export interface CodePostalEntry {
    codePostal: string;
    /** INSEE code of the municipality (2A/2B for Corsica, 97x for overseas departments). */
    codeCommune: string;
    nomCommune: string;
    /** The name the postal service prints on mail, upper case, often abbreviated (ST, STE). */
    libelleAcheminement: string;
  }
  /** Every municipality served by a postal code; an empty array for an unknown code. */
  export function find(postalCode: string): CodePostalEntry[];
  const codesPostaux: { find: typeof find };
  export default codesPostaux;
}
