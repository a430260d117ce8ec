import { OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig } from '@asteasolutions/zod-to-openapi';
import type { AppEnv } from '../platform/appEnv.js';
import { bodyMediaType } from './mediaType.js';
import type { AnyRoute } from './route.js';
import { AuthenticationError, BadRequestError, GlobalError, ValidationError } from './schemas/errors.js';
import { tagGroups, tags } from './tags.js';
import { RATE_LIMIT_POINTS, RATE_LIMIT_WINDOW_SECONDS } from './rateLimitPolicy.js';
import { z } from './zod.js';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from '../platform/idempotency/key.js';

export const API_VERSION = '1.0.0';

/**
 * What the document says about where it is served, all from the process's configuration: its
 * environment, this server's address, the production server's, and the support's address.
 */
export interface ApiSite {
  appEnv: AppEnv;
  publicUrl: string;
  productionUrl: string | null;
  supportEmail: string;
}

const ENVIRONMENT_NAMES: Record<AppEnv, string> = {
  development: 'Development',
  integration: 'Integration',
  production: 'Production',
};

/**
 * The servers the document declares: this one first (the samples of the reference and of the docs
 * call it), then production when this one is not it and its address is configured. No other host.
 */
export function apiServers(site: ApiSite): { url: string; description: string }[] {
  if (site.appEnv === 'production') return [{ url: site.publicUrl, description: 'Production' }];
  return [
    { url: site.publicUrl, description: `${ENVIRONMENT_NAMES[site.appEnv]}: test data, school-platform mocks` },
    ...(site.productionUrl && site.productionUrl !== site.publicUrl
      ? [{ url: site.productionUrl, description: 'Production' }]
      : []),
  ];
}

function json(description: string, schema: z.ZodType, headers?: ResponseConfig['headers']): ResponseConfig {
  return { description, content: { 'application/json': { schema } }, ...(headers ? { headers } : {}) };
}

const rateLimitHeaders = {
  RateLimit: {
    description:
      'Where the key stands (IETF draft): `"per-key";r=<requests left>;t=<seconds until the window resets>`.',
    schema: { type: 'string' as const },
  },
  'RateLimit-Policy': {
    description: `The policy (IETF draft): \`"per-key";q=${RATE_LIMIT_POINTS};w=${RATE_LIMIT_WINDOW_SECONDS}\`.`,
    schema: { type: 'string' as const },
  },
  'RateLimit-Limit': { description: 'Requests allowed in the window.', schema: { type: 'integer' as const } },
  'RateLimit-Remaining': { description: 'Requests left in the window.', schema: { type: 'integer' as const } },
  'RateLimit-Reset': { description: 'Seconds until the window resets.', schema: { type: 'integer' as const } },
};

const replayedHeader = {
  'Idempotent-Replayed': {
    description: '`true` on the answer to a retry with an `Idempotency-Key` already used: the first answer, replayed.',
    schema: { type: 'string' as const, enum: ['true'] },
  },
};

function isWrite(route: AnyRoute): boolean {
  return route.method !== 'get';
}

/** The header every write takes, declared once for the document's writes. */
const idempotencyHeaders = z.object({
  'Idempotency-Key': z
    .string()
    .min(1)
    .max(IDEMPOTENCY_KEY_MAX_LENGTH)
    .optional()
    .openapi({
      description:
        'A value of yours, unique per write (a UUID), that makes it safe to retry: the same request with the ' +
        'same key within 24 hours gets the first answer back (`Idempotent-Replayed: true`) and runs nothing again. ' +
        'See [Errors and retries](/docs/understanding-our-api/errors-and-retries).',
      example: '"8e03978e-40d5-43e8-bc93-6894a57f9324"',
    }),
});

function responsesOf(route: AnyRoute): Record<string, ResponseConfig> {
  const responses: Record<string, ResponseConfig> = {};
  const success = route.response;
  const successHeaders = isWrite(route) ? { ...rateLimitHeaders, ...replayedHeader } : rateLimitHeaders;
  responses[success.status] =
    success.status === 204
      ? { description: success.description, headers: successHeaders }
      : json(success.description, success.schema, successHeaders);
  const declared = new Set(route.errors ?? []);
  if (declared.has(400)) responses[400] = json('The request breaks a business rule.', BadRequestError);
  responses[401] = json('The API key is missing, unknown or revoked.', AuthenticationError);
  responses[403] = json(
    declared.has(403)
      ? 'Not allowed: see the message (an inactive provider is refused too).'
      : 'The provider is inactive.',
    GlobalError,
  );
  if (declared.has(404)) responses[404] = json('Not found, or not reachable with this API key.', GlobalError);
  if (declared.has(410)) responses[410] = json('Gone: see the message.', GlobalError);
  if (route.request?.body) {
    responses[413] = json('The request body is too large.', GlobalError);
    responses[415] = json(
      `The body is not of the media type this operation takes (${bodyMediaType(route)}), or in a charset or encoding it cannot read.`,
      GlobalError,
    );
  }
  if (isWrite(route)) {
    responses[409] = json(
      'A request with the same `Idempotency-Key` is still running: retry after it answers.',
      GlobalError,
      {
        'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
      },
    );
  }
  responses[422] = json(
    isWrite(route)
      ? 'The request does not match the schema, or its `Idempotency-Key` was used for another request.'
      : 'The request does not match the schema.',
    ValidationError,
  );
  responses[429] = json(
    `More than ${RATE_LIMIT_POINTS} requests in ${RATE_LIMIT_WINDOW_SECONDS} seconds with this API key.`,
    GlobalError,
    {
      'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
      ...rateLimitHeaders,
    },
  );
  return responses;
}

/** Operations that exist in an environment: school-platform mocks are absent from production. */
export function routesFor(routes: AnyRoute[], appEnv: AppEnv): AnyRoute[] {
  return routes.filter((route) => !(route.sandboxOnly && appEnv === 'production'));
}

/** The OpenAPI 3.1 document, generated from the route declarations: one source of truth. */
export function generateOpenApiDocument(routes: AnyRoute[], site: ApiSite) {
  const { appEnv } = site;
  const registry = new OpenAPIRegistry();
  const bearer = registry.registerComponent('securitySchemes', 'ApiKeyAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'Your API key, sent as `Authorization: Bearer <key>`.',
  });
  for (const route of routesFor(routes, appEnv)) {
    const body = route.request?.body;
    registry.registerPath({
      method: route.method,
      path: route.path,
      tags: [route.tag],
      operationId: route.operationId,
      summary: route.summary,
      description: route.description,
      ...(route.deprecated ? { deprecated: true } : {}),
      security: [{ [bearer.name]: [] }],
      request: {
        params: route.request?.params as never,
        query: route.request?.query as never,
        ...(isWrite(route) ? { headers: idempotencyHeaders } : {}),
        ...(body ? { body: { required: true, content: { [bodyMediaType(route)]: { schema: body } } } } : {}),
      },
      responses: responsesOf(route),
    });
  }
  const usedTags = new Set<string>(routesFor(routes, appEnv).map((route) => route.tag));
  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Provider API',
      version: API_VERSION,
      description:
        'The public REST API through which ticketing systems, stock tools and integrators manage offers, ' +
        `stocks, bookings and school offers. Authenticate with your API key as a bearer token; ` +
        `each key may send ${RATE_LIMIT_POINTS} requests per minute.`,
      license: { name: 'AGPL-3.0', identifier: 'AGPL-3.0-only' },
      contact: { name: 'Provider support', email: site.supportEmail },
    },
    servers: apiServers(site),
    tags: tags.filter((tag) => usedTags.has(tag.name)).map((tag) => ({ ...tag })),
  });
  // A group lists only the tags this environment has (production has no mocks).
  const groups = tagGroups
    .map((group) => ({ name: group.name, tags: group.tags.filter((tag) => usedTags.has(tag)) }))
    .filter((group) => group.tags.length > 0);
  return { ...document, 'x-tagGroups': groups };
}
