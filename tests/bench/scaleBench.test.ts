/**
 * The scale bench's own parts (tests/bench/scale): the shape of the programme, the plan checks,
 * and, on PostgreSQL, a database built by COPY at a tiny factor whose every read answers 200.
 */
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { createRuntime, type Runtime } from '../../server/runtime.js';
import { withClient } from '../support/pgClient.js';
import { fillScaleDatabase, keyFor } from './scale/scaleData.js';
import { readsOf } from './scale/run.js';
import { PROGRAMME, scaleShape, seededRandom, zipfDraw } from './scale/scaleShape.js';
import { itemsAnswered, readRatio } from './scale/readRatio.js';
import { planProblems } from './scale/sqlCapture.js';
import { databaseUrlOf, withAdmin } from './target.js';

describe("the programme's shape", () => {
  it('is the size issue 41 gives at factor 1, and today bench size at 0.01', () => {
    const programme = scaleShape(1);
    expect(programme).toMatchObject(PROGRAMME);
    // 60 % events with 16 dates, 40 % products with one stock: ten million stocks.
    expect(programme.offers * (programme.eventShare * programme.datesPerEvent + (1 - programme.eventShare))).toBe(
      10_000_000,
    );
    expect(scaleShape(0.01)).toMatchObject({ providers: 300, offers: 10_000, bookings: 100_000 });
  });

  it('gives the largest provider about a tenth of the offers and the median one a handful', () => {
    const draw = zipfDraw(30_000, seededRandom(7));
    const counts = new Map<number, number>();
    for (let index = 0; index < 1_000_000; index += 1) {
      const rank = draw();
      counts.set(rank, (counts.get(rank) ?? 0) + 1);
    }
    // 1 / H(30,000) = 0.0917.
    expect(counts.get(1)! / 1_000_000).toBeGreaterThan(0.085);
    expect(counts.get(1)! / 1_000_000).toBeLessThan(0.1);
    expect(counts.get(15_000) ?? 0).toBeLessThan(20);
  });
});

describe('the plan checks', () => {
  const large = new Set(['booking']);
  it('names a sequential scan of a large table and a sort of more than a page', () => {
    const plan = {
      'Node Type': 'Sort',
      Plans: [
        {
          'Node Type': 'Seq Scan',
          'Relation Name': 'booking',
          'Actual Rows': 300,
          'Actual Loops': 1,
          'Rows Removed by Filter': 9_000,
        },
      ],
    };
    expect(planProblems(plan, large, 200)).toEqual(['sort of 300 rows', 'sequential scan of booking (9300 rows read)']);
  });

  it('lets an index walk and a small table pass', () => {
    const plan = {
      'Node Type': 'Nested Loop',
      Plans: [
        { 'Node Type': 'Index Scan', 'Relation Name': 'booking', 'Actual Rows': 50, 'Actual Loops': 1 },
        { 'Node Type': 'Seq Scan', 'Relation Name': 'venue', 'Actual Rows': 3, 'Actual Loops': 1 },
      ],
    };
    expect(planProblems(plan, large, 200)).toEqual([]);
  });
});

const adminUrl = process.env.TEST_DATABASE_URL;

describe('the ratio of a read at scale to today', () => {
  it('counts the entries of a list, bare or wrapped in one property', () => {
    expect(itemsAnswered([{}, {}, {}])).toBe(3);
    expect(itemsAnswered({ products: [{}, {}] })).toBe(2);
    expect(itemsAnswered({ id: 1, name: 'one offer' })).toBeNull();
    expect(itemsAnswered({ a: [], b: [] })).toBeNull();
  });

  it('compares a longer answer at scale per entry, and any other as it is', () => {
    // The collective list of the largest provider: 346 offers today, 500 (the cap) at scale.
    const collective = readRatio({ requestsPerSecond: 709, items: 346 }, { requestsPerSecond: 491, items: 500 });
    expect(collective.perItem).toBe(true);
    expect(collective.ratio).toBeCloseTo((491 * 500) / (709 * 346), 6);
    expect(readRatio({ requestsPerSecond: 800, items: 50 }, { requestsPerSecond: 600, items: 50 })).toEqual({
      ratio: 0.75,
      perItem: false,
    });
    // A typical provider is another provider at each size: fewer entries, or none, at scale.
    expect(readRatio({ requestsPerSecond: 1800, items: 4 }, { requestsPerSecond: 2700, items: 0 })).toEqual({
      ratio: 1.5,
      perItem: false,
    });
    expect(readRatio({ requestsPerSecond: 800, items: null }, { requestsPerSecond: 400, items: null }).ratio).toBe(0.5);
    expect(readRatio({ requestsPerSecond: 0, items: 3 }, { requestsPerSecond: 400, items: 5 }).ratio).toBe(0);
  });
});

describe.skipIf(!adminUrl)('a database built by COPY (PostgreSQL)', () => {
  const name = `t_scale_${randomBytes(4).toString('hex')}`;
  let url = '';
  let runtime: Runtime;
  let built: { largest: number; typical: number };
  const shape = scaleShape(0.0005);

  beforeAll(async () => {
    await withAdmin(adminUrl!, `CREATE DATABASE "${name}"`);
    url = databaseUrlOf(adminUrl!, name);
    runtime = await createRuntime(loadConfig({ LOG_LEVEL: 'silent', WORKER_ENABLED: 'false', DATABASE_URL: url }));
    built = await fillScaleDatabase(url, shape, () => undefined);
  }, 120_000);
  afterAll(async () => {
    await runtime?.close();
    await withAdmin(adminUrl!, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });

  const count = (sql: string) =>
    withClient(url, async (client) => Number((await client.query<{ n: string }>(sql)).rows[0].n));

  it('holds the rows of its shape, each booking on a stock of its own provider', async () => {
    expect(await count('select count(*) as n from provider')).toBe(shape.providers);
    expect(await count('select count(*) as n from offer')).toBe(shape.offers);
    expect(await count('select count(*) as n from booking')).toBe(shape.bookings);
    expect(await count('select count(*) as n from collective_offer')).toBe(shape.collectiveOffers);
    expect(
      await count(
        'select count(*) as n from booking b join stock s on s.id = b.stock_id join offer o on o.id = s.offer_id ' +
          'join beneficiary u on u.id = b.beneficiary_id where o.id <> b.offer_id or o.provider_id <> b.provider_id or u.provider_id <> b.provider_id',
      ),
    ).toBe(0);
    expect(await count('select count(distinct token) as n from booking')).toBe(shape.bookings);
  });

  it.each(['largest', 'typical'] as const)('answers every read of the %s provider with 200', async (role) => {
    const providerId = built[role];
    const apiKey = await keyFor(url, providerId);
    const app = createApp(runtime, { recordRequests: false });
    const reads = await readsOf(url, providerId);
    expect(reads.length).toBeGreaterThanOrEqual(10);
    for (const read of reads) {
      const response = await request(app).get(read.path).set('Authorization', `Bearer ${apiKey}`);
      expect({ read: read.key, status: response.status }).toEqual({ read: read.key, status: 200 });
    }
  });
});
