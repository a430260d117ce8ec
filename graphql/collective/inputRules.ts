import { z } from '../shared/zod.js';
import { awareDateTime, decimal, ID_MAX, id, withoutNul } from '../shared/fieldRules.js';
import type { InputRules } from '../shared/inputRules.js';
import { EAC_FORMATS } from './formats.js';
import {
  COLLECTIVE_LIMITS as LIMITS,
  INSTITUTION_FILTER_MAX_LENGTHS,
  INSTITUTIONS_PER_SEARCH,
  PHONE_PATTERN,
} from './limits.js';

/**
 * The rules of the collective subgraph's inputs, each written once: the graph checks its
 * arguments with them, and the REST facade's schemas (rest-facade/collectiveOffers) are built
 * from the same fields, so that both refuse the same input the same way.
 */

const text = (max: number) => withoutNul(z.string().max(max));
const email = z.email({ error: 'Input should be a valid email address' }).max(LIMITS.email);

/** The formats of an offer: one at least, each once at most (by its count). */
export const formatList = <T extends z.ZodType>(format: T) => z.array(format).min(1).max(EAC_FORMATS.length);

/** A collective offer's fields, as both its creation and its edition take them. */
export const collectiveOfferFieldRules = {
  bookingEmails: z.array(email).min(1).max(LIMITS.listItems),
  contactEmail: email,
  contactPhone: z.string().regex(PHONE_PATTERN, 'Input should be a valid phone number'),
  description: withoutNul(z.string().min(1).max(LIMITS.description)),
  domains: z.array(id()).min(1).max(LIMITS.listItems),
  durationMinutes: z.int().min(0).max(ID_MAX),
  educationalInstitution: withoutNul(z.string().min(1).max(LIMITS.institutionUai)),
  educationalInstitutionId: id(),
  educationalPriceDetail: text(LIMITS.priceDetail),
  imageCredit: text(LIMITS.imageCredit),
  imageFile: z.string().min(1).max(LIMITS.imageBase64),
  // As in pass Culture's API, a name of blanks is no name.
  name: withoutNul(z.string().min(1).max(LIMITS.name)).refine((value) => value.trim() !== '', {
    message: 'The name cannot be blank',
    params: { type: 'string_too_short' },
  }),
  nationalProgramId: id(),
  // As in pass Culture's API: negative is refused, 0 is taken.
  numberOfTickets: z.int().min(0).max(ID_MAX),
  students: z
    .array(withoutNul(z.string().min(1).max(LIMITS.studentLevel)))
    .min(1)
    .max(LIMITS.listItems),
  totalPrice: decimal(z.number().min(0).max(LIMITS.totalPriceEuros)),
  venueId: id(),
  interventionArea: z
    .array(withoutNul(z.string().min(1).max(LIMITS.interventionAreaItem)))
    .max(LIMITS.interventionAreaItems),
};

/** The fields of a location: an address (its label), or a comment when it is to be defined. */
export const collectiveLocationRules = {
  addressId: id(),
  addressLabel: withoutNul(z.string().min(1).max(LIMITS.addressLabel)),
  comment: text(LIMITS.locationComment),
};

export const archivedOfferIds = z.array(id()).min(1).max(LIMITS.archivedPerCall);

const rules = collectiveOfferFieldRules;
const location = collectiveLocationRules;

/**
 * CollectiveOfferInput, in the REST bodies' order of fields. Whether a field may be left out
 * or null depends on the operation (creation requires some, edition clears some): the
 * service's business.
 */
const collectiveOfferInputRule = z.object({
  bookingEmails: rules.bookingEmails.nullish(),
  bookingLimitDatetime: awareDateTime.nullish(),
  contactEmail: rules.contactEmail.nullish(),
  contactPhone: rules.contactPhone.nullish(),
  description: rules.description.nullish(),
  domains: rules.domains.nullish(),
  durationMinutes: rules.durationMinutes.nullish(),
  educationalInstitution: rules.educationalInstitution.nullish(),
  educationalInstitutionId: rules.educationalInstitutionId.nullish(),
  educationalPriceDetail: rules.educationalPriceDetail.nullish(),
  endDatetime: awareDateTime.nullish(),
  formats: formatList(z.enum(EAC_FORMATS)).nullish(),
  imageCredit: rules.imageCredit.nullish(),
  imageFile: rules.imageFile.nullish(),
  location: z
    .object({
      addressId: location.addressId.nullish(),
      addressLabel: location.addressLabel.nullish(),
      comment: location.comment.nullish(),
      venueId: rules.venueId.nullish(),
    })
    .nullish(),
  name: rules.name.nullish(),
  nationalProgramId: rules.nationalProgramId.nullish(),
  numberOfTickets: rules.numberOfTickets.nullish(),
  startDatetime: awareDateTime.nullish(),
  students: rules.students.nullish(),
  totalPrice: rules.totalPrice.nullish(),
  venueId: rules.venueId.nullish(),
  interventionArea: rules.interventionArea.nullish(),
});

const filterText = (max: number) => withoutNul(z.string().max(max));

/** The institution search's filters: each at most as long as the column it searches. */
export const institutionFilterRules = {
  id: z.int().min(1).max(ID_MAX),
  name: filterText(INSTITUTION_FILTER_MAX_LENGTHS.name),
  institutionType: filterText(INSTITUTION_FILTER_MAX_LENGTHS.institutionType),
  city: filterText(INSTITUTION_FILTER_MAX_LENGTHS.city),
  postalCode: filterText(INSTITUTION_FILTER_MAX_LENGTHS.postalCode),
  uai: filterText(INSTITUTION_FILTER_MAX_LENGTHS.uai),
  limit: z.int().min(1).max(INSTITUTIONS_PER_SEARCH.max),
};

const { limit: institutionLimit, ...institutionFilter } = institutionFilterRules;
/** In the graph every filter may be left out or null. */
const institutionFilterRule = z.object({
  id: institutionFilter.id.nullish(),
  name: institutionFilter.name.nullish(),
  institutionType: institutionFilter.institutionType.nullish(),
  city: institutionFilter.city.nullish(),
  postalCode: institutionFilter.postalCode.nullish(),
  uai: institutionFilter.uai.nullish(),
});

export const collectiveInputRules: InputRules = {
  types: {
    CollectiveOfferInput: collectiveOfferInputRule,
    InstitutionFilter: institutionFilterRule,
  },
  arguments: {
    'Mutation.archiveCollectiveOffers': { ids: archivedOfferIds },
    'Query.educationalInstitutions': { limit: institutionLimit },
  },
};
