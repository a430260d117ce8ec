import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { createSandbox } from '../support/fixtures.js';

const redisUrl = process.env.REDIS_URL;
if (!redisUrl) console.warn('Two-instance rate limit test skipped: REDIS_URL is unset');

describe.skipIf(!redisUrl)('two app instances on one Redis', () => {
  let first: TestApp;
  let second: TestApp;
  let apiKey: string;

  beforeAll(async () => {
    first = await createTestApp({ env: { REDIS_URL: redisUrl! } });
    second = await createTestApp({ env: { REDIS_URL: redisUrl! }, database: first.database });
    apiKey = (await createSandbox(first.database.orm.em.fork(), first.clock, 'test')).apiKey;
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  it('share one budget of 200 requests per minute per key', async () => {
    const call = (testApp: TestApp) =>
      request(testApp.app).get('/public/providers/v1/provider').set('Authorization', `Bearer ${apiKey}`);
    for (let index = 0; index < 200; index += 1) {
      const response = await call(index % 2 === 0 ? first : second);
      expect(response.status).toBe(200);
    }
    for (const testApp of [first, second]) {
      const refused = await call(testApp);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(refused.body.global[0]).toMatch(/200 requests per minute/);
    }
  });
});
