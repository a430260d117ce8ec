/**
 * Two audiences, two places: integrators read about the API, the team that runs the platform reads
 * the self-hosting section. An integrator's page never explains how to run the platform, and the
 * operators' configuration page lists every variable the process reads, and no other.
 */
import { describe, expect, it } from 'vitest';
import { allCategories, allDocPaths } from '../../app/docs/sidebar.js';
import { withAddresses } from '../../app/docs/addresses.server.js';
import { commands } from '../../server/cli/commands.js';
import { configVariables } from '../../server/config.js';
import { testDocsAddresses } from '../portal/testPortal.js';
import { docsPagesInOrder, isOperatorPage } from './support/docsPages.js';

const pages = docsPagesInOrder();
const integratorPages = pages.filter((page) => !isOperatorPage(page.file));

/** What belongs to running the platform: its variables, its command line, its build, its database. */
const operatorWords = [
  ...configVariables.map((variable) => new RegExp(`\\b${variable}\\b`)),
  ...Object.keys(commands).map((command) => new RegExp(`\\b${command}\\b`)),
  // npm is the integrator's own tool on a line about the SDK package, which they build and install.
  /^(?!.*(?:clients\/typescript|provider-api-client)).*\bnpm\b/,
  /\bSQLite\b/i,
  /\binternal key/i,
  /\bdemo sandbox\b/i,
  /\bplatform (of your own|you run)\b|\brun the platform\b/i,
];

describe('the audiences of the docs', () => {
  it('keep the operators’ pages in a section of their own, and only them', () => {
    const selfHosting = allCategories().find((category) => category.slug === 'self-hosting')!;
    const inSection = selfHosting.items.flatMap((item) => (item.kind === 'doc' ? [item.path] : []));
    expect(inSection.length).toBeGreaterThan(0);
    expect(allDocPaths().filter((path) => path.startsWith('self-hosting/'))).toEqual(inSection);
  });

  it('never explain running the platform on an integrator’s page, nor in the change log', () => {
    const problems = integratorPages.flatMap(({ file, source }) =>
      // As the reader sees it: the addresses' tokens are not variables of the configuration.
      withAddresses(source, file, testDocsAddresses)
        .split('\n')
        .flatMap((line, index) =>
          operatorWords
            .filter((word) => word.test(line))
            .map((word) => `${file}:${index + 1}: ${word.source} in "${line.slice(0, 100)}"`),
        ),
    );
    expect(problems).toEqual([]);
  });

  it('list every variable the process reads, and no other, on the configuration page', () => {
    const page = pages.find((entry) => entry.file.endsWith('self-hosting/configuration.md'))!;
    const listed = [...page.source.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((match) => match[1]);
    expect([...listed].sort()).toEqual([...configVariables].sort());
  });
});
