import type { Address } from '../providers/Address.js';
import { addressOrFail } from '../offers/offerLocation.js';
import { venueInScope } from '../providers/access.js';
import type { Venue } from '../providers/Venue.js';
import type { GraphContext } from '../shared/context.js';
import {
  BadRequestError,
  ForbiddenError,
  NotFoundError,
  ValidationFailedError,
  type ValidationIssue,
} from '../shared/errors.js';
import type { CollectiveLocationType } from './CollectiveOffer.js';
import type { CollectiveLocationInput } from './inputs.js';
import { EducationalDomain, EducationalInstitution, NationalProgram, StudentLevel } from './reference/entities.js';

/** The rules a collective offer's fields follow, on creation and on edition alike. */

export interface CollectiveLocationColumns {
  locationType: CollectiveLocationType;
  atVenueAddress: boolean;
  address: Address | null;
  addressLabel: string | null;
  locationComment: string | null;
}

export async function resolveCollectiveLocation(
  context: GraphContext,
  location: CollectiveLocationInput,
  venue: Venue,
): Promise<CollectiveLocationColumns> {
  const none = { atVenueAddress: false, address: null, addressLabel: null, locationComment: null };
  switch (location.type) {
    case 'SCHOOL':
      return { ...none, locationType: 'SCHOOL' };
    case 'TO_BE_DEFINED':
      return { ...none, locationType: 'TO_BE_DEFINED', locationComment: location.comment ?? null };
    case 'ADDRESS': {
      if (location.isVenueAddress) {
        // Another venue of the caller's (the deprecated offerVenue names it): at its address, as any other address.
        const at =
          location.venueId != null && location.venueId !== venue.id
            ? await venueInScope(context.em, context.caller, location.venueId)
            : venue;
        if (!at.address)
          throw BadRequestError.on('location', `The venue ${at.id} has no address: choose another location`);
        if (at !== venue) return { ...none, locationType: 'ADDRESS', address: at.address };
        return { ...none, locationType: 'ADDRESS', atVenueAddress: true };
      }
      if (location.addressId == null) {
        throw new ValidationFailedError([{ loc: ['location', 'addressId'], msg: 'Field required', type: 'missing' }]);
      }
      const address = await addressOrFail(context, location.addressId);
      return { ...none, locationType: 'ADDRESS', address, addressLabel: location.addressLabel ?? null };
    }
    default:
      throw BadRequestError.on('location', 'The location type is SCHOOL, ADDRESS or TO_BE_DEFINED');
  }
}

/** The institution named by id or by UAI (never both): unknown is 404, inactive is 403. */
export async function resolveInstitution(
  context: GraphContext,
  byId: number | null | undefined,
  byUai: string | null | undefined,
): Promise<EducationalInstitution | null> {
  if (byId != null && byUai != null) {
    throw BadRequestError.on(
      'educationalInstitutionId',
      'Give the institution by id or by UAI (educationalInstitution), not both',
    );
  }
  if (byId == null && byUai == null) return null;
  const institution = await context.em.findOne(
    EducationalInstitution,
    byId != null ? { id: byId } : { uai: byUai!.toUpperCase() },
  );
  if (!institution) throw new NotFoundError('Educational institution not found');
  if (!institution.isActive) throw new ForbiddenError(`The educational institution ${institution.uai} is not active`);
  return institution;
}

export async function checkDomains(context: GraphContext, domainIds: number[]): Promise<void> {
  const known = await context.em.find(EducationalDomain, { id: { $in: domainIds } }, { fields: ['id'] });
  const unknown = domainIds.filter((id) => !known.some((domain) => domain.id === id));
  // Not found, as for any other resource named by id that does not exist.
  if (unknown.length > 0)
    throw new NotFoundError(
      `Unknown educational domains: ${unknown.join(', ')} (see /v2/collective/educational-domains)`,
    );
}

export async function checkStudents(context: GraphContext, levels: string[]): Promise<void> {
  const known = await context.em.find(StudentLevel, { id: { $in: levels } }, { fields: ['id'] });
  const unknown = levels.filter((level) => !known.some((row) => row.id === level));
  if (unknown.length > 0)
    throw BadRequestError.on(
      'students',
      `Unknown student levels: ${unknown.join(', ')} (see /v2/collective/student-levels)`,
    );
}

/** A national programme must exist and belong to one of the offer's domains. */
export async function resolveNationalProgram(
  context: GraphContext,
  programId: number | null | undefined,
  domainIds: number[],
  options: { kept?: boolean } = {},
): Promise<NationalProgram | null> {
  if (programId == null) return null;
  const program = await context.em.findOne(NationalProgram, programId);
  if (!program) throw new NotFoundError(`Unknown national programme ${programId}`);
  const linked = await context.em.count(EducationalDomain, { id: { $in: domainIds }, nationalPrograms: programId });
  if (linked === 0) {
    throw BadRequestError.on(
      'nationalProgramId',
      options.kept
        ? `The offer's national programme ${programId} belongs to none of the new domains: send another nationalProgramId, or null`
        : `The national programme ${programId} belongs to none of the offer's domains`,
    );
  }
  return program;
}

export interface CollectiveDates {
  startDatetime: Date;
  endDatetime: Date;
  bookingLimitDatetime: Date;
}

/**
 * Dates not in the past (only those being set: an offer's past dates do not block other
 * edits), the booking limit not after the start, the end not before it.
 */
export function checkDates(dates: CollectiveDates, changed: (keyof CollectiveDates)[], now: Date): void {
  const issues: ValidationIssue[] = [];
  for (const field of changed) {
    if (dates[field].getTime() < now.getTime()) {
      issues.push({ loc: [field], msg: 'The datetime must not be in the past', type: 'datetime_future' });
    }
  }
  if (dates.bookingLimitDatetime.getTime() > dates.startDatetime.getTime()) {
    issues.push({
      loc: ['bookingLimitDatetime'],
      msg: 'The booking limit must not be after the start',
      type: 'value_error',
    });
  }
  if (dates.endDatetime.getTime() < dates.startDatetime.getTime()) {
    issues.push({ loc: ['endDatetime'], msg: 'The end must not be before the start', type: 'value_error' });
  }
  if (issues.length > 0) throw new ValidationFailedError(issues);
}

/** The school year a moment falls in, by the year it begins: from 1 September to 31 August (UTC). */
export function schoolYearOf(moment: Date): number {
  const year = moment.getUTCFullYear();
  return moment.getUTCMonth() >= 8 ? year : year - 1;
}

/** An offer takes place within one school year, the one its school's budget belongs to: 400 otherwise. */
export function checkSameSchoolYear(dates: CollectiveDates): void {
  const start = schoolYearOf(dates.startDatetime);
  const end = schoolYearOf(dates.endDatetime);
  if (start !== end) {
    throw BadRequestError.on(
      'endDatetime',
      `The start and the end must fall in the same school year (1 September to 31 August): the start is in ${start}-${start + 1}, the end in ${end}-${end + 1}`,
    );
  }
}

/**
 * A phone number as pass Culture's API stores it: in its international form, without separators.
 * A French number written nationally (a 0, then nine digits) takes +33; 00 stands for +.
 */
export function internationalPhone(phone: string): string {
  const digits = phone.replace(/[ .()-]/g, '');
  if (digits.startsWith('+')) return digits;
  if (digits.startsWith('00')) return `+${digits.slice(2)}`;
  if (/^0[1-9][0-9]{8}$/.test(digits)) return `+33${digits.slice(1)}`;
  return digits;
}

/** Euros with at most two decimals, as cents. */
export function euroCents(totalPrice: number): number {
  const cents = Math.round(totalPrice * 100);
  if (Math.abs(cents - totalPrice * 100) > 1e-6) {
    throw new ValidationFailedError([
      { loc: ['totalPrice'], msg: 'The price has at most two decimals (cents)', type: 'decimal_max_places' },
    ]);
  }
  return cents;
}

/** The same list without repeats, in first-seen order: a domain or a level named twice is one. */
export function distinct<T>(values: T[]): T[] {
  return [...new Set(values)];
}
