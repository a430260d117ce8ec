import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The server runs as server/*.ts (vitest, tsx) and as dist/server/*.js (tsc output),
 * so the root is found by walking up rather than by a fixed number of "..".
 */
export function findProjectRoot(startUrl: string = import.meta.url): string {
  let directory = dirname(fileURLToPath(startUrl));
  for (;;) {
    if (existsSync(join(directory, 'package.json'))) return directory;
    const parent = dirname(directory);
    if (parent === directory) throw new Error(`No package.json above ${fileURLToPath(startUrl)}`);
    directory = parent;
  }
}
