import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { buildGraph } from '../../graphql/graph.js';
import { transpileServer } from '../../scripts/transpile-server.mjs';
import { openDatabase } from '../../server/db/orm.js';
import { findProjectRoot } from '../../server/portal.js';
import { decoratorMetadata } from '../support/decoratorMetadata.mjs';

/**
 * `npm start`, the CLI and `npm run dev` run the server transpiled file by file by oxc
 * (scripts/transpile-server.mjs), as vitest runs the suite: the decorator metadata it emits must
 * describe the same graph and entities as the suite sees.
 */
describe('the build of the server (scripts/transpile-server.mjs)', () => {
  const projectRoot = findProjectRoot();
  // Beside the real ones (dist/, .cache/dev-server), which a running server may own.
  const outDirectory = join(projectRoot, '.cache', `dev-server-test-${process.pid}`);
  afterAll(() => rm(outDirectory, { recursive: true, force: true }));

  it('gives type-graphql and MikroORM the metadata the test suite runs on', async () => {
    expect(transpileServer(projectRoot, outDirectory).errors).toEqual([]);
    const module = (path: string) => JSON.stringify(pathToFileURL(join(outDirectory, path)).href);
    const script = [
      "import 'reflect-metadata';",
      `import { buildGraph } from ${module('graphql/graph.js')};`,
      `import { openDatabase } from ${module('server/db/orm.js')};`,
      `import { decoratorMetadata } from ${JSON.stringify(pathToFileURL(join(projectRoot, 'tests/support/decoratorMetadata.mjs')).href)};`,
      'console.log(JSON.stringify(await decoratorMetadata(buildGraph, openDatabase)));',
    ].join('\n');
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      cwd: projectRoot,
      maxBuffer: 16 * 1024 * 1024,
    });
    expect(JSON.parse(stdout)).toEqual(await decoratorMetadata(buildGraph, openDatabase));
  });
});
