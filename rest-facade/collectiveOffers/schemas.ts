import {
  archivedOfferIds,
  collectiveLocationRules as locationRules,
  collectiveOfferFieldRules as rules,
  formatList,
} from '../../graphql/collective/inputRules.js';
import { dateTime } from '../schemas/common.js';
import { awareDateTimeInput } from '../schemas/datetimes.js';
import {
  CollectiveBookingStatusEnum,
  CollectiveOfferDisplayedStatusEnum,
  CollectiveOfferStatusEnum,
  EacFormatEnum,
} from '../schemas/enums.js';
import { z } from '../zod.js';

/**
 * Collective offers: the bodies (strict, as the contract's), the locations, the answers. The
 * fields' rules are the domain's (graphql/collective/inputRules.ts); these add the contract's
 * shapes and descriptions.
 */

export const CollectiveOfferLocationSchool = z
  .strictObject({ type: z.literal('SCHOOL') })
  .openapi('CollectiveOfferLocationSchoolModel', { description: 'At the school.' });
export const CollectiveOfferLocationAddressVenue = z
  .strictObject({ type: z.literal('ADDRESS'), isVenueAddress: z.literal(true) })
  .openapi('CollectiveOfferLocationAddressVenueModel', { description: 'At the venue’s address.' });
export const CollectiveOfferLocationAddress = z
  .strictObject({
    type: z.literal('ADDRESS'),
    isVenueAddress: z.literal(false),
    addressId: locationRules.addressId.openapi({
      description: 'An address created with POST /public/offers/v1/addresses.',
    }),
    addressLabel: locationRules.addressLabel.nullable().optional(),
  })
  .openapi('CollectiveOfferLocationAddressModel', { description: 'At another address.' });
export const CollectiveOfferLocationToBeDefined = z
  .strictObject({ type: z.literal('TO_BE_DEFINED'), comment: locationRules.comment.nullable().optional() })
  .openapi('CollectiveOfferLocationToBeDefinedModel', {
    description: 'To be agreed with the school; say how in the comment.',
  });

export const CollectiveOfferLocation = z
  .discriminatedUnion('type', [
    CollectiveOfferLocationSchool,
    z.discriminatedUnion('isVenueAddress', [CollectiveOfferLocationAddressVenue, CollectiveOfferLocationAddress]),
    CollectiveOfferLocationToBeDefined,
  ])
  .openapi({ description: 'Where the offer takes place.' });

export const OfferAddressTypeEnum = z.enum(['offererVenue', 'school', 'other']).openapi('OfferAddressType');
export const OfferVenueModel = z
  .strictObject({
    addressType: OfferAddressTypeEnum,
    otherAddress: locationRules.comment.nullable().optional(),
    venueId: rules.venueId
      .nullable()
      .optional()
      .openapi({
        description:
          'With offererVenue (and only then, where it is required): the venue (one of yours, 404 otherwise) at ' +
          'whose address the offer takes place.',
      }),
  })
  // As pass Culture's API: "other" is somewhere the text says, so the text cannot be empty; the venue
  // goes with offererVenue only (which needs it), and the text with other only.
  .superRefine((offerVenue, context) => {
    const issue = (field: 'otherAddress' | 'venueId', message: string, type: string) =>
      context.addIssue({ code: 'custom', path: [field], message, params: { type } });
    const hasText = Boolean(offerVenue.otherAddress?.trim());
    if (offerVenue.addressType === 'other' && !hasText) {
      issue('otherAddress', 'With addressType other, otherAddress says where: it cannot be empty', 'missing');
    }
    if (offerVenue.addressType !== 'other' && hasText) {
      issue(
        'otherAddress',
        `otherAddress goes with addressType other only, not ${offerVenue.addressType}`,
        'value_error',
      );
    }
    if (offerVenue.addressType === 'offererVenue' && offerVenue.venueId == null) {
      issue('venueId', 'With addressType offererVenue, venueId says which venue: it is required', 'missing');
    }
    if (offerVenue.addressType !== 'offererVenue' && offerVenue.venueId != null) {
      issue('venueId', `venueId goes with addressType offererVenue only, not ${offerVenue.addressType}`, 'value_error');
    }
  })
  .openapi('OfferVenueModel', { deprecated: true, description: 'Deprecated: use location.' });

const aware = awareDateTimeInput;

/** Fields of both bodies, before the nullability of edition. */
const fields = {
  audioDisabilityCompliant: z.boolean(),
  mentalDisabilityCompliant: z.boolean(),
  motorDisabilityCompliant: z.boolean(),
  visualDisabilityCompliant: z.boolean(),
  bookingEmails: rules.bookingEmails.openapi({ description: 'Who receives the booking notifications.' }),
  bookingLimitDatetime: aware.openapi({ description: 'The school must book by then; not after the start.' }),
  contactEmail: rules.contactEmail,
  contactPhone: rules.contactPhone.openapi({ example: '+33199006328' }),
  description: rules.description,
  domains: rules.domains.openapi({ description: 'Educational domain ids (GET /v2/collective/educational-domains).' }),
  durationMinutes: rules.durationMinutes.openapi({ description: 'Minutes.' }),
  educationalInstitution: rules.educationalInstitution.openapi({
    description: 'The UAI of the one institution that may book the offer; never with educationalInstitutionId.',
    example: '0751021C',
  }),
  educationalInstitutionId: rules.educationalInstitutionId.openapi({
    description: 'The id of the one institution that may book the offer.',
  }),
  educationalPriceDetail: rules.educationalPriceDetail.openapi({ description: 'What the price covers.' }),
  endDatetime: aware.openapi({ description: 'The start by default.' }),
  formats: formatList(EacFormatEnum),
  imageCredit: rules.imageCredit,
  imageFile: rules.imageFile.openapi({
    description:
      'Base64 PNG or JPEG, 400x600 to 800x1200 pixels, portrait 2:3, at most 2,000,000 base64 characters (1.5 MiB).',
  }),
  isActive: z.boolean().openapi({ description: 'false hides the offer from schools.' }),
  location: CollectiveOfferLocation,
  name: rules.name,
  nationalProgramId: rules.nationalProgramId.openapi({
    description: 'A national programme of one of the chosen domains.',
  }),
  numberOfTickets: rules.numberOfTickets.openapi({ description: 'How many pupils and teachers the price covers.' }),
  offerVenue: OfferVenueModel,
  startDatetime: aware,
  students: rules.students.openapi({
    description: 'Student level ids (GET /v2/collective/student-levels), such as COLLEGE6.',
  }),
  totalPrice: rules.totalPrice.openapi({ description: 'Euros (not cents), at most two decimals.' }),
  venueId: rules.venueId.openapi({
    description: 'A venue of your key whose offerer is allowed on the school platform.',
  }),
};

export const PostCollectiveOfferBody = z
  .strictObject({
    audioDisabilityCompliant: fields.audioDisabilityCompliant.default(false),
    mentalDisabilityCompliant: fields.mentalDisabilityCompliant.default(false),
    motorDisabilityCompliant: fields.motorDisabilityCompliant.default(false),
    visualDisabilityCompliant: fields.visualDisabilityCompliant.default(false),
    bookingEmails: fields.bookingEmails,
    bookingLimitDatetime: fields.bookingLimitDatetime,
    contactEmail: fields.contactEmail,
    contactPhone: fields.contactPhone,
    description: fields.description,
    domains: fields.domains,
    durationMinutes: fields.durationMinutes.nullable().optional(),
    educationalInstitution: fields.educationalInstitution.nullable().optional(),
    educationalInstitutionId: fields.educationalInstitutionId.nullable().optional(),
    educationalPriceDetail: fields.educationalPriceDetail.nullable().optional(),
    endDatetime: fields.endDatetime.nullable().optional(),
    formats: fields.formats,
    imageCredit: fields.imageCredit
      .nullable()
      .optional()
      .openapi({ description: 'The credit of imageFile: each needs the other (400 otherwise).' }),
    imageFile: fields.imageFile.nullable().optional(),
    isActive: fields.isActive.nullable().optional(),
    location: fields.location
      .nullable()
      .optional()
      .openapi({ description: 'Required unless the deprecated offerVenue is sent.' }),
    name: fields.name,
    nationalProgramId: fields.nationalProgramId.nullable().optional(),
    numberOfTickets: fields.numberOfTickets,
    offerVenue: fields.offerVenue.nullable().optional(),
    startDatetime: fields.startDatetime,
    students: fields.students,
    totalPrice: fields.totalPrice,
    venueId: fields.venueId,
  })
  .superRefine((body, context) => {
    if (body.location == null && body.offerVenue == null) {
      context.addIssue({ code: 'custom', path: ['location'], message: 'Field required', params: { type: 'missing' } });
    }
  })
  .openapi('PostCollectiveOfferBodyModel');

export const PatchCollectiveOfferBody = z
  .strictObject({
    ...Object.fromEntries(Object.entries(fields).map(([name, schema]) => [name, schema.nullable().optional()])),
    interventionArea: rules.interventionArea
      .nullable()
      .optional()
      .openapi({ description: 'Départements (such as 75, 2A, 974) where you can come to the school.' }),
  } as { [K in keyof typeof fields]: z.ZodOptional<z.ZodNullable<(typeof fields)[K]>> } & {
    interventionArea: z.ZodOptional<z.ZodNullable<z.ZodArray<z.ZodString>>>;
  })
  .openapi('PatchCollectiveOfferBodyModel');

export const ArchiveCollectiveOfferBody = z
  .strictObject({ ids: archivedOfferIds })
  .openapi('ArchiveCollectiveOfferBodyModel');

export const NationalProgramModel = z.object({ id: z.int(), name: z.string() }).openapi('NationalProgramModel');

export const CollectiveBookingResponse = z
  .object({
    id: z.int(),
    status: CollectiveBookingStatusEnum,
    dateCreated: dateTime,
    confirmationDate: dateTime.nullable(),
    dateUsed: dateTime.nullable(),
    reimbursementDate: dateTime.nullable(),
    cancellationLimitDate: dateTime.nullable(),
  })
  .openapi('CollectiveBookingResponseModel');

export const CollectiveOfferSummary = z
  .object({
    id: z.int(),
    status: CollectiveOfferStatusEnum,
    offerStatus: CollectiveOfferDisplayedStatusEnum,
    venueId: z.int(),
    startDatetime: dateTime,
    endDatetime: dateTime,
    bookings: z.array(CollectiveBookingResponse),
  })
  .openapi('CollectiveOffersResponseModel');

export const CollectiveOfferLocationResponse = z
  .union([
    CollectiveOfferLocationSchool,
    CollectiveOfferLocationAddressVenue,
    CollectiveOfferLocationAddress,
    CollectiveOfferLocationToBeDefined,
  ])
  .openapi({ description: 'Where the offer takes place.' });

/** The whole offer: its summary's fields first, then the others. */
export const CollectiveOfferDetail = z
  .object({
    ...CollectiveOfferSummary.shape,
    audioDisabilityCompliant: z.boolean().nullable(),
    mentalDisabilityCompliant: z.boolean().nullable(),
    motorDisabilityCompliant: z.boolean().nullable(),
    visualDisabilityCompliant: z.boolean().nullable(),
    bookingEmails: z.array(z.string()).nullable(),
    bookingLimitDatetime: dateTime,
    contactEmail: z.string(),
    contactPhone: z.string(),
    dateCreated: dateTime,
    description: z.string().nullable(),
    domains: z.array(z.int()),
    durationMinutes: z.int().nullable(),
    educationalInstitution: z.string().nullable(),
    educationalInstitutionId: z.int().nullable(),
    educationalPriceDetail: z.string().nullable(),
    formats: z.array(EacFormatEnum),
    hasBookingLimitDatetimesPassed: z.boolean(),
    imageCredit: z.string().nullable(),
    imageUrl: z.string().nullable(),
    interventionArea: z.array(z.string()),
    isActive: z.boolean().nullable(),
    isSoldOut: z.boolean(),
    location: CollectiveOfferLocationResponse.nullable(),
    name: z.string(),
    // A union, not .nullable(): the generator would write a nullable $ref as allOf, which null cannot match.
    nationalProgram: z.union([NationalProgramModel, z.null()]),
    numberOfTickets: z.int(),
    offerVenue: z
      .object({ addressType: OfferAddressTypeEnum, otherAddress: z.string().nullable(), venueId: z.int().nullable() })
      .openapi({ deprecated: true, description: 'Deprecated: derived from location.' }),
    students: z.array(z.string()),
    totalPrice: z.number().openapi({ description: 'Euros.' }),
  })
  .strict()
  .openapi('GetPublicCollectiveOfferResponseModel');

export const CollectiveOffersList = z.array(CollectiveOfferSummary).openapi('CollectiveOffersListResponseModel');
