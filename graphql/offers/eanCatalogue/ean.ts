/** EAN-13 codes: the product identifiers of books (ISBN-13), records and films. */

export const EAN_LENGTH = 13;

/** The check digit (13th) computed from the first twelve digits: weights 1 and 3 alternately, from the left. */
export function eanCheckDigit(firstTwelve: string): number {
  let sum = 0;
  for (let index = 0; index < 12; index += 1) sum += Number(firstTwelve[index]) * (index % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10;
}

/** Thirteen digits whose last one is the check digit of the others. */
export function isValidEan(value: string): boolean {
  return /^\d{13}$/.test(value) && eanCheckDigit(value) === Number(value[12]);
}

/** The full EAN-13 for twelve digits, check digit appended. */
export function withEanCheckDigit(firstTwelve: string): string {
  if (!/^\d{12}$/.test(firstTwelve)) throw new Error(`Twelve digits expected, got ${firstTwelve}`);
  return `${firstTwelve}${eanCheckDigit(firstTwelve)}`;
}
