import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { recordedRows } from '../support/requestLog.js';

/** On both engines: a database that recorded requests before the bodies had a table of their own. */
describe('The request log bodies migration on a database that holds requests', () => {
  let database: TestDatabase;
  const run = (sql: string, params: unknown[] = []) => database.orm.em.getConnection().execute(sql, params);

  beforeAll(async () => {
    database = await createTestDatabase({ migrated: false });
    await database.orm.getMigrator().up({ to: 'Migration20261129010000JobTraceParent' });
    const columns =
      'provider_id, api_key_id, api_key_prefix, request_id, created_at, method, path, status, duration_ms, ' +
      'request_body, request_body_truncated, response_body, response_body_truncated';
    await run(
      `insert into request_log (${columns}) values (?, 1, 'k', 'with-both', ?, 'PATCH', '/p', 422, 1, ?, ?, ?, ?)`,
      [4, new Date('2026-11-28T10:00:00Z'), '{"sent":1}', true, '{"errors":[]}', false],
    );
    await run(
      `insert into request_log (${columns}) values (?, 1, 'k', 'without', ?, 'GET', '/p', 204, 1, ?, ?, ?, ?)`,
      [4, new Date('2026-11-28T10:00:01Z'), null, false, null, false],
    );
    await database.orm.getMigrator().up();
  });
  afterAll(() => database?.destroy());

  it('keeps the bodies each request had, and their cut marks', async () => {
    const rows = await recordedRows(database.orm.em.fork(), { providerId: 4 });
    expect(
      rows.map(({ requestId, requestBody, requestBodyTruncated, responseBody, responseBodyTruncated }) => ({
        requestId,
        requestBody,
        requestBodyTruncated,
        responseBody,
        responseBodyTruncated,
      })),
    ).toEqual([
      {
        requestId: 'with-both',
        requestBody: '{"sent":1}',
        requestBodyTruncated: true,
        responseBody: '{"errors":[]}',
        responseBodyTruncated: false,
      },
      {
        requestId: 'without',
        requestBody: null,
        requestBodyTruncated: false,
        responseBody: null,
        responseBodyTruncated: false,
      },
    ]);
  });
});
