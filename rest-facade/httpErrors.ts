import { GraphQLError } from 'graphql';
import { DomainError, type DomainErrorCode } from '../graphql/shared/errors.js';

export interface HttpErrorAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** Seconds a client is told to wait before trying a route whose service is down again. */
export const SERVICE_RETRY_AFTER_SECONDS = 5;

/**
 * The service that owns a route (a subgraph served by a process of its own) did not answer in
 * time: only its routes answer 503, and the client may try again shortly.
 */
export class ServiceUnavailableError extends Error {
  constructor(
    readonly service: string,
    readonly reason: string,
  ) {
    super(`The ${service} service is unavailable: ${reason}`);
  }
}

const statusByCode: Record<DomainErrorCode, number> = {
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  GONE: 410,
  BAD_REQUEST: 400,
  VALIDATION_FAILED: 422,
};

/** The one place where a domain error becomes an HTTP status and body. */
export function answerForDomainError(
  code: DomainErrorCode,
  message: string,
  extensions: Record<string, unknown>,
): HttpErrorAnswer {
  const status = statusByCode[code];
  switch (code) {
    case 'UNAUTHENTICATED':
      return { status, body: { auth: message } };
    case 'BAD_REQUEST':
      return { status, body: extensions.fields ?? { global: [message] } };
    case 'VALIDATION_FAILED':
      return { status, body: extensions.issues };
    default:
      return { status, body: { global: [message] } };
  }
}

function isDomainCode(code: unknown): code is DomainErrorCode {
  return typeof code === 'string' && code in statusByCode;
}

/**
 * The answer for an error thrown by middleware or found in a GraphQL result, or null when
 * it is not a domain error (a bug: the caller logs it and answers 500).
 */
export function answerForError(error: unknown): HttpErrorAnswer | null {
  if (error instanceof ServiceUnavailableError) {
    return {
      status: 503,
      body: { global: [`The ${error.service} service is unavailable: try again in a few seconds`] },
      headers: { 'Retry-After': String(SERVICE_RETRY_AFTER_SECONDS) },
    };
  }
  if (error instanceof DomainError) return answerForDomainError(error.code, error.message, error.extensions);
  if (error instanceof GraphQLError) {
    if (error.originalError instanceof DomainError) return answerForError(error.originalError);
    const code = error.extensions?.code;
    if (isDomainCode(code)) return answerForDomainError(code, error.message, error.extensions);
  }
  return null;
}

/**
 * The database did not answer (it restarts, or the connection to it was cut): nothing of the
 * operation can be trusted to have run, and the same request will likely succeed shortly.
 */
export const DATABASE_UNAVAILABLE_MESSAGE = 'The database is unavailable: try again in a few seconds';

export const databaseUnavailableAnswer = {
  status: 503,
  body: { global: [DATABASE_UNAVAILABLE_MESSAGE] },
  headers: { 'Retry-After': String(SERVICE_RETRY_AFTER_SECONDS) },
} satisfies HttpErrorAnswer;

export const internalErrorAnswer: HttpErrorAnswer = {
  status: 500,
  body: { global: ['Internal server error'] },
};
