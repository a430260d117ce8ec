/**
 * The sandbox's stand-in for the culture-pass app's beneficiaries: test beneficiaries of a
 * provider, with the credit of a new pass, who book through the real booking saga (bookingSaga.ts).
 */
import { callerProviderId } from '../offers/access.js';
import type { GraphContext } from '../shared/context.js';
import { NotFoundError, type ValidationIssue, ValidationFailedError } from '../shared/errors.js';
import { Beneficiary, INITIAL_CREDIT_CENTS } from './Beneficiary.js';
import {
  BENEFICIARY_EMAIL_MAX_LENGTH,
  BENEFICIARY_EMAIL_PATTERN,
  BENEFICIARY_NAME_MAX_LENGTH,
  BENEFICIARY_PHONE_PATTERN,
  BENEFICIARY_POSTAL_CODE_PATTERN,
  BIRTH_DATE_PATTERN,
} from './limits.js';

export interface BeneficiaryInput {
  email: string;
  firstName: string;
  lastName: string;
  birthDate: string;
  phoneNumber?: string | null;
  postalCode?: string | null;
}

function beneficiaryIssues(input: BeneficiaryInput): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (!BENEFICIARY_EMAIL_PATTERN.test(input.email) || input.email.length > BENEFICIARY_EMAIL_MAX_LENGTH) {
    issues.push({ loc: ['email'], msg: 'A valid email address is required', type: 'value_error' });
  }
  for (const field of ['firstName', 'lastName'] as const) {
    if (input[field].trim().length === 0 || input[field].length > BENEFICIARY_NAME_MAX_LENGTH) {
      issues.push({ loc: [field], msg: `1 to ${BENEFICIARY_NAME_MAX_LENGTH} characters`, type: 'string_too_long' });
    }
  }
  const birth = BIRTH_DATE_PATTERN.test(input.birthDate) ? new Date(`${input.birthDate}T00:00:00Z`) : null;
  if (!birth || Number.isNaN(birth.getTime()) || birth.toISOString().slice(0, 10) !== input.birthDate) {
    issues.push({ loc: ['birthDate'], msg: 'A date as YYYY-MM-DD', type: 'date_parsing' });
  }
  if (input.postalCode != null && !BENEFICIARY_POSTAL_CODE_PATTERN.test(input.postalCode)) {
    issues.push({ loc: ['postalCode'], msg: 'Five digits', type: 'string_pattern_mismatch' });
  }
  if (input.phoneNumber != null && !BENEFICIARY_PHONE_PATTERN.test(input.phoneNumber)) {
    issues.push({
      loc: ['phoneNumber'],
      msg: 'A phone number: digits, spaces and an optional leading +',
      type: 'string_pattern_mismatch',
    });
  }
  return issues;
}

/**
 * A phone number as pass Culture answers its beneficiaries' numbers, in E.164: without spaces,
 * a French national number (0 and nine digits) written +33 and the nine digits.
 */
export function e164PhoneNumber(phoneNumber: string): string {
  const compact = phoneNumber.replace(/ /g, '');
  return /^0[1-9]\d{8}$/.test(compact) ? `+33${compact.slice(1)}` : compact;
}

/** A test beneficiary of the calling provider, with the 300 euro credit of a new pass. */
export async function createBeneficiary(context: GraphContext, input: BeneficiaryInput): Promise<Beneficiary> {
  const providerId = callerProviderId(context);
  const issues = beneficiaryIssues(input);
  if (issues.length > 0) throw new ValidationFailedError(issues);
  const beneficiary = context.em.create(Beneficiary, {
    provider: providerId,
    email: input.email,
    firstName: input.firstName,
    lastName: input.lastName,
    birthDate: input.birthDate,
    phoneNumber: input.phoneNumber == null ? null : e164PhoneNumber(input.phoneNumber),
    postalCode: input.postalCode ?? null,
    credit: INITIAL_CREDIT_CENTS,
    createdAt: context.clock.now(),
  });
  await context.em.flush();
  return beneficiary;
}

/** The named beneficiary of the provider (404 otherwise), or its first one, created on demand. */
export async function sandboxBeneficiary(
  context: GraphContext,
  providerId: number,
  beneficiaryId: number | null | undefined,
): Promise<Beneficiary> {
  if (beneficiaryId != null) {
    const found = await context.em.findOne(Beneficiary, { id: beneficiaryId, provider: providerId });
    if (!found) throw new NotFoundError('Beneficiary not found');
    return found;
  }
  const first = await context.em.findOne(Beneficiary, { provider: providerId }, { orderBy: { id: 'asc' } });
  return (
    first ??
    createBeneficiary(context, {
      email: 'jeune.sandbox@example.com',
      firstName: 'Camille',
      lastName: 'Sandbox',
      birthDate: '2007-05-14',
      postalCode: '75011',
    })
  );
}
