import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PortalAssets } from '../../app/portalContext.js';
import { portalAssetsPath } from '../../server/portal.js';
import { ensurePortalBuilt } from '../portal/ensureBuilt.js';
import { createTestPortal } from '../portal/testPortal.js';

/** Issues 22 and 36: the back office's and the console's JavaScript on first load, gzip. */
const FIRST_LOAD_BUDGET_BYTES = 150 * 1024;

/** A script and every module it imports statically (what the browser fetches before running it), by URL. */
function firstLoad(root: string, url: string, seen = new Map<string, Buffer>()): Map<string, Buffer> {
  if (seen.has(url)) return seen;
  const file = readFileSync(join(root, 'public', url));
  seen.set(url, file);
  for (const match of file.toString('utf8').matchAll(/(?:import|from)\s*["'](\.\/[^"']+\.js)["']/g)) {
    firstLoad(root, join(dirname(url), match[1]), seen);
  }
  return seen;
}

describe('The back office’s and the console’s JavaScript', () => {
  let root: string;
  let assets: PortalAssets;
  beforeAll(() => {
    root = ensurePortalBuilt();
    assets = JSON.parse(readFileSync(portalAssetsPath(root), 'utf8')) as PortalAssets;
  });

  it.each([
    ['back office', () => assets.backOffice.script],
    ['console', () => assets.backOffice.consoleScript],
  ])(`%s: is at most ${FIRST_LOAD_BUDGET_BYTES / 1024} KB gzip on first load`, (area, script) => {
    const files = firstLoad(root, script());
    const sizes = [...files].map(([url, file]) => ({
      url,
      raw: file.length,
      gzip: gzipSync(file, { level: 9 }).length,
    }));
    const total = sizes.reduce((sum, size) => sum + size.gzip, 0);
    console.log(
      `${area} first load: ${(total / 1024).toFixed(1)} KB gzip in ${sizes.length} files\n` +
        sizes
          .map((size) => `  ${size.url}: ${(size.raw / 1024).toFixed(1)} KB, ${(size.gzip / 1024).toFixed(1)} KB gzip`)
          .join('\n'),
    );
    expect(total).toBeGreaterThan(0);
    expect(total).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_BYTES);
  });

  it('is none of a portal page’s, whose one script imports nothing of it', async () => {
    const portal = await createTestPortal();
    for (const path of ['/', '/docs', '/rest-api', '/change-logs']) {
      const page = await request(portal).get(path);
      expect(page.status, path).toBe(200);
      expect(page.text, path).toContain(assets.clientScript);
      expect(page.text, path).not.toContain('/build/backoffice/');
    }
    const portalScripts = [...firstLoad(root, assets.clientScript).keys()];
    expect(portalScripts.every((url) => url.startsWith('/build/client/'))).toBe(true);
  });
});
