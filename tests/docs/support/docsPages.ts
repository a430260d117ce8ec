import { existsSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { allDocPaths } from '../../../app/docs/sidebar.js';
import { findProjectRoot } from '../../../server/portal.js';

export interface DocsPageSource {
  /** The file, relative to the project (how a report names it). */
  file: string;
  source: string;
}

/** The pages for the team that runs the platform, not for integrators: the self-hosting section. */
export const OPERATOR_SECTION = join('docs', 'pages', 'self-hosting');

export function isOperatorPage(file: string): boolean {
  return file.startsWith(`${OPERATOR_SECTION}${sep}`);
}

/** Every docs page in reading order: the /docs landing, the sidebar's pages, the change log last. */
export function docsPagesInOrder(): DocsPageSource[] {
  const root = findProjectRoot();
  const paths = ['index', ...allDocPaths(), 'change-logs'];
  return paths.map((path) => {
    const file = join('docs', 'pages', `${path}.md`);
    if (!existsSync(join(root, file))) throw new Error(`${file}: no such page`);
    return { file, source: readFileSync(join(root, file), 'utf8') };
  });
}
