import type { Request } from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiKey } from '../../graphql/providers/apiKeys.js';
import { csvField, csvRecord } from '../../platform/audit/index.js';
import { keySessionOf } from '../../server/http/keySession.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { aProvider, createSandbox } from '../support/fixtures.js';

describe('CSV fields', () => {
  it('quotes a field with a comma, a quote or a line break, its quotes doubled', () => {
    expect(csvField('plain text')).toBe('plain text');
    expect(csvField('a, b')).toBe('"a, b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(null)).toBe('');
    expect(csvField(42)).toBe('42');
    expect(csvRecord(['a', 'b,c', null])).toBe('a,"b,c",\r\n');
  });

  it('keeps a spreadsheet from reading a field as a formula', () => {
    expect(csvField('=1+1')).toBe("'=1+1");
    expect(csvField('+33 1 23')).toBe("'+33 1 23");
    expect(csvField('-2')).toBe("'-2");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\tcmd')).toBe("'\tcmd");
    expect(csvField('=HYPERLINK("http://x", "y")')).toBe(`"'=HYPERLINK(""http://x"", ""y"")"`);
  });
});

describe('The audit trail as CSV (/backoffice/audit.csv)', () => {
  let testApp: TestApp;
  let cookie: string;
  let prefix: string;
  let providerId: number;
  const LABEL = '=cmd|" /C calc"!A0, desk';

  beforeAll(async () => {
    testApp = await createTestApp({ env: { BACKOFFICE_BREAK_GLASS: 'true' } });
    const em = testApp.database.orm.em.fork();
    await createSandbox(em, testApp.clock, 'test');
    // A label a spreadsheet would run: the export must neutralise it.
    const issued = issueApiKey(em, testApp.clock, { env: 'test', internal: true, label: LABEL });
    await em.flush();
    prefix = issued.apiKey.prefix;
    const page = { get: () => undefined, res: { locals: { requestId: 'req-csv-sign-in' } } } as unknown as Request;
    cookie = (await (await keySessionOf(testApp.runtime, page, 'staff')).signIn(issued.key)).split(';')[0];
    providerId = (await aProvider(testApp.database.orm.em.fork(), testApp.clock)).provider.id;
    for (const isActive of [false, true]) {
      const answer = await request(testApp.app)
        .post('/graphql')
        .set('Authorization', `Bearer ${issued.key}`)
        .set('X-Request-Id', `req-active-${isActive}`)
        .send({ query: `mutation { setProviderActive(providerId: ${providerId}, isActive: ${isActive}) { id } }` });
      expect(answer.body.errors).toBeUndefined();
    }
  });
  afterAll(() => testApp?.close());

  const csv = (query = '') => request(testApp.app).get(`/backoffice/audit.csv${query}`).set('Cookie', cookie);

  /** The records of an answer, parsed back by the RFC's rules (quoted fields may hold commas and quotes). */
  function records(text: string): string[][] {
    const rows: string[][] = [];
    const field = /("(?:[^"]|"")*"|[^,\r\n]*)(,|\r\n)/gy;
    let row: string[] = [];
    for (let match = field.exec(text); match; match = field.exec(text)) {
      const raw = match[1];
      row.push(raw.startsWith('"') ? raw.slice(1, -1).replace(/""/g, '"') : raw);
      if (match[2] === '\r\n') {
        rows.push(row);
        row = [];
      }
    }
    return rows;
  }

  it('exports every entry, newest first, as a CSV attachment', async () => {
    const answer = await csv();
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.headers['content-disposition']).toBe('attachment; filename="audit-2026-11-22.csv"');
    expect(answer.headers['cache-control']).toBe('no-store');
    const [header, ...rows] = records(answer.text);
    expect(header).toEqual([
      'id',
      'created_at',
      'actor_kind',
      'actor_key_prefix',
      'actor_label',
      'actor_subject',
      'actor_email',
      'action',
      'target_type',
      'target_id',
      'before',
      'after',
      'request_id',
    ]);
    expect(rows.map((row) => [row[7], row[12]])).toEqual([
      ['provider.activation_changed', 'req-active-true'],
      ['provider.activation_changed', 'req-active-false'],
      ['staff.signed_in', 'req-csv-sign-in'],
    ]);
    expect(rows[1]).toEqual([
      expect.stringMatching(/^\d+$/),
      '2026-11-22T10:00:00.000Z',
      'api_key',
      prefix,
      `'${LABEL}`,
      '',
      '',
      'provider.activation_changed',
      'provider',
      String(providerId),
      '{"isActive":true}',
      '{"isActive":false}',
      'req-active-false',
    ]);
  });

  it('applies the screen’s filters', async () => {
    const ofAction = records((await csv('?action=staff.signed_in')).text);
    expect(ofAction.slice(1).map((row) => row[7])).toEqual(['staff.signed_in']);
    const ofTarget = records((await csv(`?targetType=provider&targetId=${providerId}&actor=${prefix}`)).text);
    expect(ofTarget).toHaveLength(3);
    const later = records((await csv('?from=2026-11-22T10:00:01Z')).text);
    expect(later).toHaveLength(1);
    const before = records((await csv('?to=2026-11-22T10:00:00Z')).text);
    expect(before).toHaveLength(1);
  });

  it('refuses bad filters with 422 before writing anything', async () => {
    const answer = await csv('?action=offer.deleted&from=yesterday&colour=red');
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ loc: ['action'], type: 'enum' }),
        expect.objectContaining({ loc: ['from'], type: 'datetime_parsing' }),
        expect.objectContaining({ loc: ['colour'], type: 'extra_forbidden' }),
      ]),
    );
  });

  it('sends a browser without a back-office session to the sign-in page, and back after', async () => {
    const answer = await request(testApp.app).get('/backoffice/audit.csv?action=job.retried');
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe(
      `/backoffice/sign-in?next=${encodeURIComponent('/backoffice/audit.csv?action=job.retried')}`,
    );
    const withAKey = await request(testApp.app)
      .get('/backoffice/audit.csv')
      .set('Authorization', `Bearer ${cookie.split('=')[1]}`);
    expect(withAKey.status).toBe(302);
  });
});
