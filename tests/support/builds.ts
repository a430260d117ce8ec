import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Build, portalBuild, serverBuild } from '../../scripts/builds.mjs';

/**
 * Which builds a test file reads, told by the helpers it calls: vitest's global setup
 * (tests/support/globalSetup.ts) makes those builds once, before the first worker starts, for
 * the files of the run. A new helper that reads a build belongs in this list.
 */
const READERS: { build: Build; helpers: string[] }[] = [
  { build: serverBuild, helpers: ['ensureServerBuilt', 'useServerRuns'] },
  // The compiled server's process serves the portal too.
  {
    build: portalBuild,
    helpers: [
      'ensureServerBuilt',
      'useServerRuns',
      'ensurePortalBuilt',
      'createTestPortal',
      'startTestPortal',
      'useBrowser',
      'aBackOfficeWorld',
    ],
  },
];

/** The builds that these test files (absolute paths) read. */
export function buildsReadBy(testFiles: string[]): Build[] {
  const sources = testFiles.map((file) => readFileSync(file, 'utf8'));
  return READERS.filter(({ helpers }) =>
    sources.some((source) => helpers.some((helper) => source.includes(`${helper}(`))),
  ).map(({ build }) => build);
}

/**
 * In a test file: fails, saying why, when a build the file reads was not made (its helper is
 * missing from READERS). The build read is the one made when the run started: a source saved
 * during the run is built by the next run.
 */
export function requireBuilt(projectRoot: string, build: Build, helper: string): void {
  const missing = build.outputs.filter((output) => !existsSync(join(projectRoot, output)));
  if (missing.length === 0) return;
  throw new Error(
    `${helper}(): ${missing.join(', ')} missing. vitest's global setup builds it for the test files ` +
      'that call one of the helpers listed in tests/support/builds.ts.',
  );
}
