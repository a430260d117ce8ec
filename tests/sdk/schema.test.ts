import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sdkSchemaPath, sdkSchemaSource } from '../../scripts/sdkSchema.js';

describe('the TypeScript SDK', () => {
  it('is generated from the current document (run `npm run sdk:generate` after a change to the routes)', async () => {
    expect(await sdkSchemaSource()).toBe(readFileSync(sdkSchemaPath, 'utf8'));
  });
});
