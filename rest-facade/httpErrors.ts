import { GraphQLError } from 'graphql';
import { DomainError, type DomainErrorCode } from '../graphql/shared/errors.js';

export interface HttpErrorAnswer {
  status: number;
  body: unknown;
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
  if (error instanceof DomainError) return answerForDomainError(error.code, error.message, error.extensions);
  if (error instanceof GraphQLError) {
    if (error.originalError instanceof DomainError) return answerForError(error.originalError);
    const code = error.extensions?.code;
    if (isDomainCode(code)) return answerForDomainError(code, error.message, error.extensions);
  }
  return null;
}

export const internalErrorAnswer: HttpErrorAnswer = {
  status: 500,
  body: { global: ['Internal server error'] },
};
