import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKey } from '../../graphql/providers/ApiKey.js';
import { type CommandContext, commands } from '../../server/cli/commands.js';
import { createTestApp, type TestApp } from '../support/app.js';

describe('npm run cli -- create-key --internal: a machine’s key names its owner and purpose', () => {
  let testApp: TestApp;
  const context = (): CommandContext => ({
    em: testApp.runtime.orm.em.fork(),
    clock: testApp.clock,
    keyEnv: 'development',
  });
  const run = (options: Record<string, string | boolean>) => commands['create-key'].run(options, [], context());

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => testApp?.close());

  it('refuses an internal key without a label, and issues nothing', async () => {
    const before = await testApp.runtime.orm.em.fork().count(ApiKey);
    await expect(run({ internal: true })).rejects.toThrow('An internal key names its owner and purpose');
    await expect(run({ internal: true, label: '  ' })).rejects.toThrow('An internal key names its owner and purpose');
    expect(await testApp.runtime.orm.em.fork().count(ApiKey)).toBe(before);
  });

  it('issues one with its label', async () => {
    const issued = await run({ internal: true, label: 'ops team: uptime checks' });
    expect(issued).toMatchObject({ internal: true, apiKey: expect.stringMatching(/^development_/) });
    const stored = await testApp.runtime.orm.em.fork().findOneOrFail(ApiKey, { prefix: issued.prefix as string });
    expect(stored).toMatchObject({ isInternal: true, label: 'ops team: uptime checks' });
  });
});
