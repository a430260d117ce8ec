/** SIREN (9 digits) and SIRET (14 digits) carry a Luhn check digit; New Caledonian RIDETs start with NC. */
export const sirenPattern = /^(\d{9}|NC\d{7})$/;
/** A SIRET is 14 digits; a New Caledonian RIDET is written NC, its 10 digits, then XX (14 characters too). */
export const siretPattern = /^(\d{14}|NC\d{10}XX)$/;

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export function isValidSiren(siren: string): boolean {
  if (siren.startsWith('NC')) return /^NC\d{7}$/.test(siren);
  return /^\d{9}$/.test(siren) && luhnValid(siren);
}

export function isValidSiret(siret: string): boolean {
  return /^\d{14}$/.test(siret) && luhnValid(siret);
}

/** Appends the digit that makes `body` Luhn-valid: for demo and test identifiers. */
export function withLuhnCheckDigit(body: string): string {
  for (let digit = 0; digit <= 9; digit += 1) {
    if (luhnValid(`${body}${digit}`)) return `${body}${digit}`;
  }
  throw new Error('unreachable: one check digit always fits');
}
