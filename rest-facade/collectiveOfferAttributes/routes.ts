import { institutionFilterRules } from '../../graphql/collective/inputRules.js';
import { INSTITUTIONS_PER_SEARCH } from '../../graphql/collective/limits.js';
import { oneOf } from '../graphAnswer.js';
import { defineRoute } from '../route.js';
import { EacFormatEnum } from '../schemas/enums.js';
import { integerInput } from '../schemas/inputs.js';
import { graphql } from '../subgraphs/graphql.js';
import { z } from '../zod.js';
import { NationalProgramModel } from '../collectiveOffers/schemas.js';

const TAG = 'Collective Offer Attributes';

export const getEducationalDomains = defineRoute({
  method: 'get',
  path: '/v2/collective/educational-domains',
  tag: TAG,
  operationId: 'ListEducationalDomains',
  summary: 'Get the educational domains',
  description:
    'The domains of artistic and cultural education a collective offer belongs to, each with its national programmes.',
  subgraph: 'collective',
  document: graphql.collective(
    'query ListEducationalDomains { educationalDomains { id name nationalPrograms { id name } } }',
  ),
  response: {
    status: 200,
    description: 'The educational domains.',
    schema: z
      .array(
        z
          .object({ id: z.int(), name: z.string(), nationalPrograms: z.array(NationalProgramModel) })
          .openapi('CollectiveOffersDomainResponseModel'),
      )
      .openapi('CollectiveOffersListDomainsResponseModel'),
    select: (data) => data.educationalDomains,
  },
});

export const getNationalPrograms = defineRoute({
  method: 'get',
  path: '/v2/collective/national-programs/',
  tag: TAG,
  operationId: 'GetNationalPrograms',
  summary: 'Get the national programmes',
  description:
    'The national programmes of artistic and cultural education; a collective offer may name one of its domains’.',
  subgraph: 'collective',
  document: graphql.collective('query GetNationalPrograms { nationalPrograms { id name } }'),
  response: {
    status: 200,
    description: 'The national programmes.',
    schema: z.array(NationalProgramModel).openapi('ListNationalProgramsResponseModel'),
    select: (data) => data.nationalPrograms,
  },
});

export const getStudentLevels = defineRoute({
  method: 'get',
  path: '/v2/collective/student-levels',
  tag: TAG,
  operationId: 'ListStudentsLevels',
  summary: 'Get the student levels',
  description:
    'The school levels a collective offer is meant for, from primary school to lycée; `students` takes their ids.',
  subgraph: 'collective',
  document: graphql.collective('query ListStudentsLevels { studentLevels { id name } }'),
  response: {
    status: 200,
    description: 'The student levels.',
    schema: z
      .array(
        z
          .object({ id: z.string().openapi({ example: 'COLLEGE6' }), name: z.string() })
          .openapi('CollectiveOffersStudentLevelResponseModel'),
      )
      .openapi('CollectiveOffersListStudentLevelsResponseModel'),
    select: (data) => data.studentLevels,
  },
});

export const getOfferFormats = defineRoute({
  method: 'get',
  path: '/v2/collective/offers/formats',
  tag: TAG,
  operationId: 'GetOffersFormats',
  summary: 'Get the collective offer formats',
  description: 'The formats a collective offer may take (`formats`).',
  subgraph: 'collective',
  document: graphql.collective('query GetOffersFormats { collectiveOfferFormats }'),
  response: {
    status: 200,
    description: 'The formats.',
    schema: z.array(EacFormatEnum).openapi('GetOffersFormatsResponse'),
    select: (data) => data.collectiveOfferFormats.map((format) => oneOf(EacFormatEnum, format)),
  },
});

export const getEducationalInstitutions = defineRoute({
  method: 'get',
  path: '/v2/collective/educational-institutions/',
  tag: TAG,
  operationId: 'ListEducationalInstitutions',
  summary: 'Search educational institutions',
  description:
    'Schools and other institutions of the school platform, in id order, matching every filter given: `name`, ' +
    '`institutionType`, `city` and `postalCode` match any part, in any case; `id` and `uai` match exactly. At most ' +
    '`limit` are answered, and never more than 20.',
  subgraph: 'collective',
  document: graphql.collective(`query ListEducationalInstitutions($filter: InstitutionFilter, $limit: Int!) {
    educationalInstitutions(filter: $filter, limit: $limit) { id uai name institutionType city postalCode }
  }`),
  request: {
    query: z.object({
      id: integerInput(institutionFilterRules.id.optional()),
      name: institutionFilterRules.name.optional(),
      institutionType: institutionFilterRules.institutionType.optional(),
      city: institutionFilterRules.city.optional(),
      postalCode: institutionFilterRules.postalCode.optional(),
      uai: institutionFilterRules.uai.optional(),
      limit: integerInput(institutionFilterRules.limit.default(INSTITUTIONS_PER_SEARCH.byDefault)),
    }),
  },
  variables: ({ query }) => ({
    filter: {
      id: query.id ?? null,
      name: query.name || null,
      institutionType: query.institutionType || null,
      city: query.city || null,
      postalCode: query.postalCode || null,
      uai: query.uai || null,
    },
    limit: query.limit,
  }),
  response: {
    status: 200,
    description: 'The matching institutions, at most `limit` (20 at most).',
    schema: z
      .array(
        z
          .object({
            id: z.int(),
            uai: z.string(),
            name: z.string(),
            institutionType: z.string(),
            city: z.string(),
            postalCode: z.string(),
          })
          .openapi('CollectiveOffersEducationalInstitutionResponseModel'),
      )
      .openapi('CollectiveOffersListEducationalInstitutionResponseModel'),
    select: (data) => data.educationalInstitutions,
  },
});

export const collectiveOfferAttributeRoutes = [
  getEducationalDomains,
  getNationalPrograms,
  getStudentLevels,
  getOfferFormats,
  getEducationalInstitutions,
];
