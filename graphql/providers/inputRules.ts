import { withoutNul } from '../shared/fieldRules.js';
import { z } from '../shared/zod.js';
import type { InputRules } from '../shared/inputRules.js';
import { externalUrlsRule } from './externalUrls.js';
import { JOB_STATUSES } from '../../platform/jobs/Job.js';
import {
  API_KEY_LABEL_MAX_LENGTH,
  API_KEY_PREFIX_MAX_LENGTH,
  CITY_MAX_LENGTH,
  JOB_TYPE_FILTER_MAX_LENGTH,
  PROVIDER_NAME_MAX_LENGTH,
  POSTAL_CODE_PATTERN,
  STREET_MAX_LENGTH,
} from './limits.js';
import { sirenPattern, siretPattern } from './siren.js';
import { STATUS_CLASS_PATTERN } from './requests/recordedRequests.js';
import { pageRules } from '../shared/pagination.js';
import { auditFilterRule } from './staff/auditTrail.js';

/** The rules of the providers subgraph's inputs; the REST facade's schemas are built from the same. */

export const addressFieldRules = {
  street: withoutNul(z.string().trim().min(1).max(STREET_MAX_LENGTH)),
  city: withoutNul(z.string().trim().min(1).max(CITY_MAX_LENGTH)),
  postalCode: z.string().regex(POSTAL_CODE_PATTERN, 'A French postal code: 5 digits, department 01 to 98'),
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
};

/** Coordinates come as a pair or not at all (when an address is recorded). */
export function bothCoordinatesOrNone(
  value: { latitude?: number | null; longitude?: number | null },
  context: z.RefinementCtx,
): void {
  const hasLatitude = value.latitude != null;
  const hasLongitude = value.longitude != null;
  if (hasLatitude === hasLongitude) return;
  context.addIssue({
    code: 'custom',
    path: [hasLatitude ? 'longitude' : 'latitude'],
    message: 'Send latitude and longitude together',
    params: { type: 'missing' },
  });
}

export const sirenRule = z.string().regex(sirenPattern, 'A SIREN is 9 digits, or NC followed by 7 digits');
export const siretRule = z
  .string()
  .regex(siretPattern, 'A SIRET is 14 digits; a RIDET is NC followed by 10 digits and XX');

const addressSearchRule = z.object({
  ...addressFieldRules,
  latitude: addressFieldRules.latitude.nullish(),
  longitude: addressFieldRules.longitude.nullish(),
});

export const providersInputRules: InputRules = {
  types: {
    ExternalUrlsInput: externalUrlsRule,
    JobFilter: z.object({
      status: z.enum(JOB_STATUSES).nullish(),
      type: z.string().max(JOB_TYPE_FILTER_MAX_LENGTH).nullish(),
    }),
    RecordedRequestFilter: z.object({
      statusClass: z.string().regex(STATUS_CLASS_PATTERN, 'A class of statuses: 1xx, 2xx, 3xx, 4xx or 5xx').nullish(),
    }),
    RecordedRequestPage: z.object({ before: z.int().min(1).nullish(), limit: pageRules.limit }),
    AuditEntryFilter: auditFilterRule,
    AuditEntryPage: z.object({ before: z.int().min(1).nullish(), limit: pageRules.limit }),
  },
  arguments: {
    // Recording an address and searching one both take the coordinates as a pair, as pass Culture does.
    'Mutation.createAddress': { input: addressSearchRule.superRefine(bothCoordinatesOrNone) },
    'Query.searchAddresses': { input: addressSearchRule.superRefine(bothCoordinatesOrNone) },
    'Query.offererVenues': { siren: sirenRule },
    'Query.venueBySiret': { siret: siretRule },
    'Query.providers': { search: z.string().max(PROVIDER_NAME_MAX_LENGTH) },
    'Mutation.issueApiKey': { label: z.string().trim().min(1).max(API_KEY_LABEL_MAX_LENGTH) },
    'Mutation.issueMyApiKey': { label: z.string().trim().min(1).max(API_KEY_LABEL_MAX_LENGTH) },
    'Mutation.revokeMyApiKey': { prefix: z.string().max(API_KEY_PREFIX_MAX_LENGTH) },
  },
};
