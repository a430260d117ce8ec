import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  engines: { node: string };
};

/**
 * Issue 37: the project runs on the Node.js that its own `npm install` brings (the npm package
 * `node`), not on the machine's, which may be out of support: npm puts `node_modules/.bin` first
 * on the PATH of every script, so `npm test`, `npm start` and what they spawn run on it.
 */
describe('The runtime', () => {
  it('is the Node.js that package.json names, installed into node_modules/.bin', () => {
    const pinned = manifest.dependencies.node;
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(process.versions.node).toBe(pinned);
    expect(existsSync(join(root, 'node_modules', '.bin', 'node'))).toBe(true);
  });

  it('is a long-term-support line, at least the one package.json requires', () => {
    const [major] = process.versions.node.split('.').map(Number);
    // Even majors are the LTS lines; 24 is supported until April 2028.
    expect(major % 2).toBe(0);
    expect(major).toBeGreaterThanOrEqual(Number(/\d+/.exec(manifest.engines.node)?.[0]));
  });
});
