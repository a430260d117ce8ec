import { TOKEN_LENGTH } from '../../graphql/bookings/limits.js';
import { TOKEN_ALPHABET } from '../../graphql/bookings/rules.js';

const TOKEN_SPACE = TOKEN_ALPHABET.length ** TOKEN_LENGTH;
/** Coprime with 31, so that n -> n * MULTIPLIER mod 31^6 is a bijection: distinct, scattered tokens. */
const TOKEN_MULTIPLIER = 48_271;

/** The n-th token of a bijective walk of the 31^6 countermarks: seeded bookings get distinct real-looking tokens. */
export function tokenOf(sequence: number): string {
  let value = (sequence * TOKEN_MULTIPLIER + 9_973) % TOKEN_SPACE;
  let token = '';
  for (let index = 0; index < TOKEN_LENGTH; index += 1) {
    token = TOKEN_ALPHABET[value % TOKEN_ALPHABET.length] + token;
    value = Math.floor(value / TOKEN_ALPHABET.length);
  }
  return token;
}
