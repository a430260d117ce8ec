import { GraphQLError } from 'graphql';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../platform/sql/databaseUnavailable.js';
import { callerFacingError } from '../../server/graphqlEndpoint.js';
import { freePort } from '../support/privateServers.js';

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

  it('hides any other message (a driver error may quote SQL and personal data), and logs it with its causes', () => {
    const logged: object[] = [];
    const driverError = Object.assign(new Error('insert into "beneficiary" ... value too long'), { code: '22001' });
    const thrown = new GraphQLError(driverError.message, {
      path: ['sandboxCreateBeneficiary'],
      originalError: driverError,
    });
    const answer = callerFacingError(
      { message: thrown.message, path: ['sandboxCreateBeneficiary'], extensions: { code: 'INTERNAL_SERVER_ERROR' } },
      { error: (fields) => void logged.push(fields) },
      thrown,
    );
    expect(answer).toEqual({
      message: 'Internal server error',
      path: ['sandboxCreateBeneficiary'],
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    });
    // Each link of the chain, so that the log tells which driver said what, and where it was thrown.
    expect(logged).toEqual([
      {
        err: 'insert into "beneficiary" ... value too long',
        path: ['sandboxCreateBeneficiary'],
        causes: [
          { name: 'GraphQLError', message: 'insert into "beneficiary" ... value too long' },
          { name: 'Error', code: '22001', message: 'insert into "beneficiary" ... value too long' },
        ],
        stack: driverError.stack,
      },
    ]);
  });

  it('says SERVICE_UNAVAILABLE for a database that does not answer, as the gateway wraps it, and warns', async () => {
    // pg's own error for a connection refused, wrapped as a subgraph's error, then as the gateway's.
    const refused = await new pg.Client({ host: '127.0.0.1', port: await freePort() }).connect().then(
      () => new Error('connected to a port nobody listens on'),
      (error: unknown) => error,
    );
    const inSubgraph = new GraphQLError('connect ECONNREFUSED', {
      path: ['myMessages'],
      originalError: refused as Error,
    });
    const atGateway = new GraphQLError('connect ECONNREFUSED', { path: ['myMessages'], originalError: inSubgraph });
    expect(isDatabaseUnavailable(atGateway)).toBe(true);
    expect(
      isDatabaseUnavailable(new GraphQLError('value too long', { originalError: new Error('value too long') })),
    ).toBe(false);
    const warned: object[] = [];
    const answer = callerFacingError(
      atGateway.toJSON(),
      { warn: (fields) => void warned.push(fields), error: () => undefined },
      atGateway,
    );
    expect(answer).toEqual({
      message: 'The database is unavailable: try again in a few seconds',
      path: ['myMessages'],
      extensions: { code: 'SERVICE_UNAVAILABLE' },
    });
    expect(warned).toHaveLength(1);
  });
});
