import { venueInScope } from '../providers/access.js';
import type { Venue } from '../providers/Venue.js';
import { callerProviderId } from '../offers/access.js';
import { storeBase64Image } from '../offers/offerImage.js';
import { parseAwareDatetime } from '../offers/datetimes.js';
import type { GraphContext } from '../shared/context.js';
import { BadRequestError, NotFoundError, ValidationFailedError } from '../shared/errors.js';
import { lockCollectiveOffers, requireSchoolPlatformRights } from './access.js';
import { cancellationLimitFor } from './bookingRules.js';
import { CollectiveOffer } from './CollectiveOffer.js';
import { scheduleCollectiveAutoApproval } from './review.js';
import { ARCHIVABLE_STATUSES } from './actionRules.js';
import { collectiveDisplayedStatus, lastBookingOf } from './displayedStatus.js';
import { checkEditAllowed } from './editRules.js';
import type { CollectiveLocationInput, CollectiveOfferInput } from './inputs.js';
import { locationOf } from './views.js';
import {
  checkDates,
  checkDomains,
  checkSameSchoolYear,
  checkStudents,
  type CollectiveDates,
  distinct,
  euroCents,
  internationalPhone,
  resolveCollectiveLocation,
  resolveInstitution,
  resolveNationalProgram,
} from './offerRules.js';

const REQUIRED_ON_CREATE = [
  'venueId',
  'name',
  'description',
  'formats',
  'bookingEmails',
  'contactEmail',
  'contactPhone',
  'domains',
  'students',
  'location',
  'startDatetime',
  'bookingLimitDatetime',
  'totalPrice',
  'numberOfTickets',
] as const;

type Input = CollectiveOfferInput;

function requireFields(input: Input, fields: readonly (keyof Input)[]): void {
  const missing = fields.filter((field) => input[field] == null);
  if (missing.length > 0) {
    throw new ValidationFailedError(missing.map((field) => ({ loc: [field], msg: 'Field required', type: 'missing' })));
  }
}

async function schoolVenue(context: GraphContext, venueId: number): Promise<Venue> {
  const venue = await venueInScope(context.em, context.caller, venueId);
  await requireSchoolPlatformRights(context, venue);
  return venue;
}

export async function createCollectiveOffer(context: GraphContext, input: Input): Promise<CollectiveOffer> {
  const providerId = callerProviderId(context);
  requireFields(input, REQUIRED_ON_CREATE);
  const now = context.clock.now();
  checkNewImageCredit(input);
  const venue = await schoolVenue(context, input.venueId!);
  const startDatetime = parseAwareDatetime(input.startDatetime!, ['startDatetime']);
  const dates: CollectiveDates = {
    startDatetime,
    endDatetime: input.endDatetime ? parseAwareDatetime(input.endDatetime, ['endDatetime']) : startDatetime,
    bookingLimitDatetime: parseAwareDatetime(input.bookingLimitDatetime!, ['bookingLimitDatetime']),
  };
  checkDates(dates, ['startDatetime', 'endDatetime', 'bookingLimitDatetime'], now);
  checkSameSchoolYear(dates);
  await checkDomains(context, input.domains!);
  await checkStudents(context, input.students!);
  const nationalProgram = await resolveNationalProgram(context, input.nationalProgramId, input.domains!);
  // Every offer is for one institution, the one school that may book it: naming none is not finding it.
  const institution = await resolveInstitution(context, input.educationalInstitutionId, input.educationalInstitution);
  if (!institution) {
    throw new NotFoundError(
      'Educational institution not found: name it by educationalInstitutionId or by its UAI in educationalInstitution',
    );
  }
  const location = await resolveCollectiveLocation(context, input.location!, venue);
  const totalPriceCents = euroCents(input.totalPrice!);
  const image = input.imageFile
    ? await storeBase64Image(context, { file: input.imageFile, credit: input.imageCredit }, ['imageFile'])
    : null;

  return context.em.transactional(async (em) => {
    const offer = em.create(CollectiveOffer, {
      provider: providerId,
      venue,
      name: input.name!,
      description: input.description!,
      formats: distinct(input.formats!),
      bookingEmails: distinct(input.bookingEmails!),
      contactEmail: input.contactEmail!,
      contactPhone: internationalPhone(input.contactPhone!),
      domains: distinct(input.domains!),
      students: distinct(input.students!),
      interventionArea: distinct(input.interventionArea ?? []),
      ...location,
      ...dates,
      totalPriceCents,
      numberOfTickets: input.numberOfTickets!,
      priceDetail: input.educationalPriceDetail ?? null,
      durationMinutes: input.durationMinutes ?? null,
      institution,
      nationalProgram,
      imageKey: image?.key ?? null,
      imageCredit: image ? image.credit : null,
      audioDisabilityCompliant: input.audioDisabilityCompliant ?? false,
      mentalDisabilityCompliant: input.mentalDisabilityCompliant ?? false,
      motorDisabilityCompliant: input.motorDisabilityCompliant ?? false,
      visualDisabilityCompliant: input.visualDisabilityCompliant ?? false,
      isActive: input.isActive ?? true,
      validation: 'PENDING',
      dateCreated: now,
      dateUpdated: now,
    });
    await em.flush();
    scheduleCollectiveAutoApproval(em, context.clock, context.services.offerReview.autoApprovalDelayMs, [offer]);
    await em.flush();
    return offer;
  });
}

/**
 * Fields that may not be emptied: null on them is a 422, as their absence on creation is; the end
 * and the institution too, as in pass Culture's API. A null booking limit is the start instead.
 */
const NOT_NULLABLE: (keyof Input)[] = [
  ...REQUIRED_ON_CREATE.filter((field) => field !== 'bookingLimitDatetime'),
  'endDatetime',
  'educationalInstitutionId',
  'educationalInstitution',
  'interventionArea',
  'isActive',
  'audioDisabilityCompliant',
  'mentalDisabilityCompliant',
  'motorDisabilityCompliant',
  'visualDisabilityCompliant',
];

function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((item, index) => sameValue(item, b[index]));
  return a === b;
}

/** The request's fields as the offer holds them, to tell a real change from a value resent unchanged. */
function currentValues(offer: CollectiveOffer): Partial<Record<keyof Input, unknown>> {
  return {
    venueId: offer.venue.id,
    name: offer.name,
    description: offer.description,
    formats: offer.formats,
    bookingEmails: offer.bookingEmails,
    contactEmail: offer.contactEmail,
    contactPhone: offer.contactPhone,
    domains: offer.domains,
    students: offer.students,
    interventionArea: offer.interventionArea,
    startDatetime: offer.startDatetime,
    endDatetime: offer.endDatetime,
    bookingLimitDatetime: offer.bookingLimitDatetime,
    totalPrice: offer.totalPriceCents / 100,
    numberOfTickets: offer.numberOfTickets,
    educationalPriceDetail: offer.priceDetail,
    durationMinutes: offer.durationMinutes,
    educationalInstitutionId: offer.institution?.id ?? null,
    educationalInstitution: offer.institution?.uai ?? null,
    nationalProgramId: offer.nationalProgram?.id ?? null,
    imageCredit: offer.imageCredit,
    isActive: offer.isActive,
    audioDisabilityCompliant: offer.audioDisabilityCompliant,
    mentalDisabilityCompliant: offer.mentalDisabilityCompliant,
    motorDisabilityCompliant: offer.motorDisabilityCompliant,
    visualDisabilityCompliant: offer.visualDisabilityCompliant,
  };
}

function requestedDates(input: Input): Partial<Record<keyof CollectiveDates, Date>> {
  const dates: Partial<Record<keyof CollectiveDates, Date>> = {};
  for (const field of ['startDatetime', 'endDatetime', 'bookingLimitDatetime'] as const) {
    const value = input[field];
    if (value != null) dates[field] = parseAwareDatetime(value, [field]);
  }
  return dates;
}

/** A requested value in the form the offer holds it: dates parsed, a UAI in capitals, a null booking limit as the start. */
function requestedValue(
  offer: CollectiveOffer,
  field: keyof Input,
  value: unknown,
  dates: Partial<Record<keyof CollectiveDates, Date>>,
): unknown {
  if (field === 'bookingLimitDatetime' && value === null) return dates.startDatetime ?? offer.startDatetime;
  if (field in dates) return dates[field as keyof CollectiveDates];
  if (field === 'educationalInstitution' && typeof value === 'string') return value.toUpperCase();
  return value;
}

/** Whether a requested location is where the offer already is. */
function sameLocation(requested: CollectiveLocationInput, offer: CollectiveOffer): boolean {
  const current = locationOf(offer);
  if (requested.type !== current.type) return false;
  if (requested.type === 'TO_BE_DEFINED') return (requested.comment ?? null) === current.comment;
  if (requested.type === 'ADDRESS') {
    if (Boolean(requested.isVenueAddress) !== Boolean(current.isVenueAddress)) return false;
    return requested.isVenueAddress
      ? true
      : requested.addressId === current.addressId && (requested.addressLabel ?? null) === current.addressLabel;
  }
  return true;
}

/** The fields of the request whose value differs from the offer's (a new image always counts). */
function changedFields(
  offer: CollectiveOffer,
  input: Input,
  dates: Partial<Record<keyof CollectiveDates, Date>>,
): (keyof Input)[] {
  const current = currentValues(offer);
  const changed: (keyof Input)[] = [];
  for (const [field, value] of Object.entries(input) as [keyof Input, unknown][]) {
    if (value === undefined) continue;
    if (field === 'imageFile') {
      // Removing an image the offer does not have changes nothing.
      if (value !== null || offer.imageKey) changed.push(field);
      continue;
    }
    if (field === 'location') {
      if (!sameLocation(value as CollectiveLocationInput, offer)) changed.push(field);
      continue;
    }
    if (!sameValue(requestedValue(offer, field, value, dates), current[field] ?? null)) changed.push(field);
  }
  return changed;
}

/**
 * An image and its credit go together, as in pass Culture's API: a new image needs a credit (sent
 * or kept), a credit needs an image (sent or kept), and the credit of a kept image cannot be
 * removed. Removing the image removes its credit with it.
 */
function checkImageCredit(offer: CollectiveOffer, input: Input): void {
  const keepsImage = offer.imageKey != null && input.imageFile !== null;
  if (input.imageCredit === null && (keepsImage || input.imageFile)) {
    throw BadRequestError.on('imageCredit', 'An image needs its credit: imageCredit cannot be null while there is one');
  }
  if (input.imageCredit != null && !keepsImage && !input.imageFile) {
    throw BadRequestError.on('imageCredit', 'A credit needs an image: send imageFile with imageCredit');
  }
  if (input.imageFile && input.imageCredit == null && offer.imageCredit == null) {
    throw BadRequestError.on('imageFile', 'A new image needs a credit: send imageCredit with imageFile');
  }
}

/** On creation an image and its credit come together, as in pass Culture's API: neither without the other. */
function checkNewImageCredit(input: Input): void {
  if (input.imageFile && input.imageCredit == null) {
    throw BadRequestError.on('imageFile', 'A new image needs a credit: send imageCredit with imageFile');
  }
  if (input.imageCredit != null && !input.imageFile) {
    throw BadRequestError.on('imageCredit', 'A credit needs an image: send imageFile with imageCredit');
  }
}

/** Changes the fields sent, as far as the offer's displayed status allows (400 naming each refused field). */
export async function editCollectiveOffer(
  context: GraphContext,
  offer: CollectiveOffer,
  input: Input,
): Promise<CollectiveOffer> {
  const nulled = NOT_NULLABLE.filter((field) => input[field] === null);
  if (nulled.length > 0) {
    throw new ValidationFailedError(
      nulled.map((field) => ({ loc: [field], msg: 'This field cannot be null', type: 'not_nullable' })),
    );
  }
  for (const field of ['formats', 'bookingEmails', 'domains', 'students', 'interventionArea'] as const) {
    if (input[field]) (input as Record<string, unknown>)[field] = distinct(input[field] as unknown[]);
  }
  if (input.contactPhone) input.contactPhone = internationalPhone(input.contactPhone);
  const now = context.clock.now();
  const dates = requestedDates(input);
  const changed = changedFields(offer, input, dates);
  const booking = lastBookingOf(offer.bookings.getItems());
  checkEditAllowed(collectiveDisplayedStatus(offer, booking, now), changed, {
    current: offer.totalPriceCents,
    requested: input.totalPrice != null ? euroCents(input.totalPrice) : undefined,
  });
  if (changed.length === 0) return offer;
  checkImageCredit(offer, input);
  const has = (field: keyof Input) => changed.includes(field);

  const venue = has('venueId') ? await schoolVenue(context, input.venueId!) : offer.venue;
  const nextDates: CollectiveDates = {
    startDatetime: dates.startDatetime ?? offer.startDatetime,
    endDatetime: dates.endDatetime ?? offer.endDatetime,
    bookingLimitDatetime: dates.bookingLimitDatetime ?? offer.bookingLimitDatetime,
  };
  // An offer whose end was its start keeps a one-moment event when only the start moves.
  const endFollowsStart = !has('endDatetime') && offer.endDatetime.getTime() === offer.startDatetime.getTime();
  if (has('startDatetime') && endFollowsStart) nextDates.endDatetime = nextDates.startDatetime;
  // A booking limit sent null is the start: the school may confirm until the event begins.
  if (input.bookingLimitDatetime === null) nextDates.bookingLimitDatetime = nextDates.startDatetime;
  checkDates(
    nextDates,
    (['startDatetime', 'endDatetime', 'bookingLimitDatetime'] as const).filter((field) => has(field)),
    now,
  );
  if (has('startDatetime') || has('endDatetime')) checkSameSchoolYear(nextDates);
  if (has('domains')) await checkDomains(context, input.domains!);
  if (has('students')) await checkStudents(context, input.students!);
  const domains = input.domains ?? offer.domains;
  const nationalProgram =
    has('nationalProgramId') || has('domains')
      ? await resolveNationalProgram(
          context,
          input.nationalProgramId !== undefined ? input.nationalProgramId : offer.nationalProgram?.id,
          domains,
          {
            kept: input.nationalProgramId === undefined,
          },
        )
      : offer.nationalProgram;
  const institutionChanged = has('educationalInstitutionId') || has('educationalInstitution');
  const institution = institutionChanged
    ? await resolveInstitution(context, input.educationalInstitutionId, input.educationalInstitution)
    : offer.institution;
  // A new venue is checked against the location it keeps: "at the venue's address" needs an address.
  const location =
    has('location') || has('venueId')
      ? await resolveCollectiveLocation(
          context,
          input.location ?? (locationOf(offer) as CollectiveLocationInput),
          venue,
        )
      : null;
  const image = input.imageFile
    ? await storeBase64Image(context, { file: input.imageFile, credit: input.imageCredit ?? offer.imageCredit }, [
        'imageFile',
      ])
    : null;

  context.em.assign(offer, {
    venue,
    ...(location ?? {}),
    ...nextDates,
    nationalProgram,
    institution,
    dateUpdated: now,
  });
  const simple = {
    name: 'name',
    description: 'description',
    formats: 'formats',
    bookingEmails: 'bookingEmails',
    contactEmail: 'contactEmail',
    contactPhone: 'contactPhone',
    domains: 'domains',
    students: 'students',
    interventionArea: 'interventionArea',
    numberOfTickets: 'numberOfTickets',
    educationalPriceDetail: 'priceDetail',
    durationMinutes: 'durationMinutes',
    isActive: 'isActive',
    audioDisabilityCompliant: 'audioDisabilityCompliant',
    mentalDisabilityCompliant: 'mentalDisabilityCompliant',
    motorDisabilityCompliant: 'motorDisabilityCompliant',
    visualDisabilityCompliant: 'visualDisabilityCompliant',
  } as const;
  for (const [field, column] of Object.entries(simple) as [
    keyof typeof simple,
    (typeof simple)[keyof typeof simple],
  ][]) {
    if (has(field)) (offer as unknown as Record<string, unknown>)[column] = input[field];
  }
  if (has('totalPrice')) offer.totalPriceCents = euroCents(input.totalPrice!);
  if (input.imageFile === null) {
    offer.imageKey = null;
    offer.imageCredit = null;
  } else if (image) {
    offer.imageKey = image.key;
    offer.imageCredit = image.credit;
  } else if (has('imageCredit') && offer.imageKey) {
    offer.imageCredit = input.imageCredit ?? null;
  }
  // A pending pre-booking follows the offer's dates: the school confirms by the new limit.
  if (booking && booking.status === 'PENDING') {
    booking.confirmationLimitDate = offer.bookingLimitDatetime;
    booking.cancellationLimitDate = cancellationLimitFor(offer.startDatetime, booking.dateCreated);
  }
  await context.em.flush();
  return offer;
}

/**
 * Archives the caller's offers, all or none: an id not found (or not the caller's) is 404; an
 * offer under review, or whose school holds a pending or confirmed booking, is 400.
 */
export async function archiveCollectiveOffers(context: GraphContext, ids: number[]): Promise<void> {
  const providerId = callerProviderId(context);
  const now = context.clock.now();
  const unique = [...new Set(ids)];
  await context.em.transactional(async (em) => {
    // Locked like a booking locks its offer: an archive and a booking never both win.
    await lockCollectiveOffers(em, unique);
    const offers = await em.find(
      CollectiveOffer,
      {
        id: { $in: unique },
        provider: providerId,
        ...(context.caller.kind === 'provider' && context.caller.offererId != null
          ? { venue: { offerer: context.caller.offererId } }
          : {}),
      },
      { populate: ['bookings'] },
    );
    const missing = unique.filter((id) => !offers.some((offer) => offer.id === id));
    if (missing.length > 0) throw new NotFoundError(`Collective offers not found: ${missing.join(', ')}`);
    const refused: string[] = [];
    for (const offer of offers) {
      const booking = lastBookingOf(offer.bookings.getItems());
      const status = collectiveDisplayedStatus(offer, booking, now);
      if (booking && (booking.status === 'PENDING' || booking.status === 'CONFIRMED')) {
        refused.push(`The offer ${offer.id} has a ${booking.status} booking: it cannot be archived`);
      } else if (!ARCHIVABLE_STATUSES.has(status)) {
        refused.push(`The offer ${offer.id} is ${status}: it cannot be archived`);
      } else {
        // Archived is no longer shown, as pass Culture's API has it: isActive false.
        offer.archivedAt = now;
        offer.isActive = false;
      }
    }
    if (refused.length > 0) throw new BadRequestError({ ids: refused });
    await em.flush();
  });
}
