import { GraphQLError } from 'graphql';

/**
 * Domain errors. Resolvers throw these; the REST facade maps their `code` to an HTTP
 * status in one place (rest-facade/errors.ts) and /graphql shows them as GraphQL errors.
 */
export type DomainErrorCode =
  'UNAUTHENTICATED' | 'FORBIDDEN' | 'NOT_FOUND' | 'GONE' | 'BAD_REQUEST' | 'VALIDATION_FAILED';

/** One entry of a 422 answer: `loc` is the path of the field inside its request part. */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
  ctx?: Record<string, unknown>;
}

export class DomainError extends GraphQLError {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    extra: Record<string, unknown> = {},
  ) {
    super(message, { extensions: { code, ...extra } });
  }
}

export class UnauthenticatedError extends DomainError {
  constructor(message = 'API key required') {
    super('UNAUTHENTICATED', message);
  }
}

export class ForbiddenError extends DomainError {
  constructor(message: string) {
    super('FORBIDDEN', message);
  }
}

export class NotFoundError extends DomainError {
  constructor(message: string) {
    super('NOT_FOUND', message);
  }
}

export class GoneError extends DomainError {
  constructor(message: string) {
    super('GONE', message);
  }
}

/** A request that is well-formed but refused by a business rule: 400, keyed by field. */
export class BadRequestError extends DomainError {
  constructor(readonly fields: Record<string, string[]>) {
    super('BAD_REQUEST', Object.values(fields).flat().join(' '), { fields });
  }

  static on(field: string, message: string): BadRequestError {
    return new BadRequestError({ [field]: [message] });
  }
}

/** Input that breaks a documented constraint, found only once data is read: 422. */
export class ValidationFailedError extends DomainError {
  constructor(readonly issues: ValidationIssue[]) {
    super('VALIDATION_FAILED', issues.map((issue) => issue.msg).join(' '), { issues });
  }
}
