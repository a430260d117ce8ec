import type { components } from './schema.js';

type Schemas = components['schemas'];

export type ValidationErrorElement = Schemas['ValidationErrorElement'];

/**
 * A failed call, by what its body says:
 * - `validation` (422): the input does not match the schema; `errors` names each field (`loc`);
 * - `business` (400): a rule refused it; `fields` maps a dotted field path, or `global`, to messages;
 * - `authentication` (401): no valid key;
 * - `refusal` (403, 404, 409, 410, 413, 415, 429, 503): sentences in `global`, and the seconds
 *   to wait in `retryAfterSeconds` when the answer says;
 * - `unexpected`: a status or body the API does not declare (a proxy's error page, a 500).
 */
export type ApiFailure =
  | { kind: 'validation'; status: 422; errors: ValidationErrorElement[] }
  | { kind: 'business'; status: 400; fields: Schemas['BadRequestError'] }
  | { kind: 'authentication'; status: 401; message: string }
  | { kind: 'refusal'; status: RefusalStatus; messages: string[]; retryAfterSeconds: number | null }
  | { kind: 'unexpected'; status: number; body: unknown };

export type RefusalStatus = 403 | 404 | 409 | 410 | 413 | 415 | 429 | 503;

const REFUSAL_STATUSES = new Set<number>([403, 404, 409, 410, 413, 415, 429, 503]);

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function isValidationList(body: unknown): body is ValidationErrorElement[] {
  return (
    Array.isArray(body) &&
    body.every(
      (item: unknown) =>
        typeof item === 'object' &&
        item !== null &&
        isStringList((item as { loc?: unknown }).loc) &&
        typeof (item as { msg?: unknown }).msg === 'string' &&
        typeof (item as { type?: unknown }).type === 'string',
    )
  );
}

function isMessageMap(body: unknown): body is Record<string, string[]> {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && Object.values(body).every(isStringList);
}

function retryAfterOf(headers: Headers): number | null {
  const value = headers.get('Retry-After');
  return value !== null && /^\d+$/.test(value.trim()) ? Number(value) : null;
}

/** What a failed answer says, typed by its status and checked against the shape the API declares. */
export function failureOf(status: number, body: unknown, headers: Headers): ApiFailure {
  if (status === 422 && isValidationList(body)) return { kind: 'validation', status, errors: body };
  if (status === 400 && isMessageMap(body)) return { kind: 'business', status, fields: body };
  if (
    status === 401 &&
    typeof body === 'object' &&
    body !== null &&
    typeof (body as { auth?: unknown }).auth === 'string'
  )
    return { kind: 'authentication', status, message: (body as { auth: string }).auth };
  if (REFUSAL_STATUSES.has(status) && isMessageMap(body) && isStringList(body.global))
    return {
      kind: 'refusal',
      status: status as RefusalStatus,
      messages: body.global,
      retryAfterSeconds: retryAfterOf(headers),
    };
  return { kind: 'unexpected', status, body };
}

/** Thrown by `orThrow` for an answer that is not a success. */
export class ProviderApiError extends Error {
  constructor(
    readonly failure: ApiFailure,
    readonly response: Response,
  ) {
    super(`${response.status} ${describe(failure)}`);
    this.name = 'ProviderApiError';
  }

  get status(): number {
    return this.failure.status;
  }
}

function describe(failure: ApiFailure): string {
  switch (failure.kind) {
    case 'validation':
      return failure.errors.map((error) => `${error.loc.join('.')}: ${error.msg}`).join('; ');
    case 'business':
      return Object.entries(failure.fields)
        .map(([field, messages]) => `${field}: ${messages.join(' ')}`)
        .join('; ');
    case 'authentication':
      return failure.message;
    case 'refusal':
      return failure.messages.join(' ');
    case 'unexpected':
      return JSON.stringify(failure.body) ?? '';
  }
}
