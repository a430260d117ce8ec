import type { TestProject } from 'vitest/node';
import { ensureBuilt } from '../../scripts/builds.mjs';
import { findProjectRoot } from '../../server/portal.js';
import { buildsReadBy } from './builds.js';

/**
 * Before the workers start: the builds that the run's test files read (the compiled server, the
 * portal), each made once and only when its sources changed since the last. A run of files that
 * read no build builds nothing.
 */
export default async function setup(project: TestProject): Promise<void> {
  const projectRoot = findProjectRoot();
  // Side by side: tsc keeps one core busy, the portal's bundlers the other.
  const buildFor = async (testFiles: string[]): Promise<void> => {
    const startedAt = Date.now();
    await Promise.all(
      buildsReadBy(testFiles).map(async (build) => {
        if (await ensureBuilt(projectRoot, build))
          console.log(`${build.name}: built in ${((Date.now() - startedAt) / 1000).toFixed(1)} s for this run`);
      }),
    );
  };

  await buildFor(await runFiles(project));
  // Watch mode: a source changed since, and the files it reruns may read its build.
  project.onTestsRerun((specifications) => buildFor(specifications.map((specification) => specification.moduleId)));
}

/**
 * The test files of this run. vitest has collected them before it calls the global setup; its
 * state API says so but is experimental, so without it every test file counts.
 */
async function runFiles(project: TestProject): Promise<string[]> {
  const collected = project.vitest.state?.getPaths?.();
  if (Array.isArray(collected) && collected.length > 0) return collected;
  return (await project.globTestFiles()).testFiles;
}
