import { describe, expect, it } from 'vitest';
import { callerFacingError } from '../../server/graphqlEndpoint.js';

describe('errors of /graphql', () => {
  it('keeps the domain errors and the request errors as they are', () => {
    for (const code of [
      'NOT_FOUND',
      'BAD_REQUEST',
      'VALIDATION_FAILED',
      'GRAPHQL_VALIDATION_FAILED',
      'BAD_USER_INPUT',
      'QUERY_TOO_COMPLEX',
      'RATE_LIMITED',
      'INTROSPECTION_DISABLED',
    ]) {
      const error = { message: 'Booking not found', path: ['booking'], extensions: { code } };
      expect(callerFacingError(error)).toBe(error);
    }
  });

  it('hides any other message (a driver error may quote SQL and personal data), and logs it', () => {
    const logged: object[] = [];
    const answer = callerFacingError(
      {
        message: 'insert into "beneficiary" ... value too long',
        path: ['sandboxCreateBeneficiary'],
        extensions: { code: 'INTERNAL_SERVER_ERROR' },
      },
      { error: (fields) => void logged.push(fields) },
    );
    expect(answer).toEqual({
      message: 'Internal server error',
      path: ['sandboxCreateBeneficiary'],
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    });
    expect(logged).toEqual([
      { err: 'insert into "beneficiary" ... value too long', path: ['sandboxCreateBeneficiary'] },
    ]);
  });
});
