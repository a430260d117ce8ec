/**
 * The docs name no API host of their own: every sample calls the server that serves the portal,
 * through the address its configuration gives ({{BASE_URL}}, or $BASE_URL set from it once per
 * page), and the only other hosts they name are the reader's own machine and the domains reserved
 * for examples.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withAddresses } from '../../app/docs/addresses.server.js';
import { loadDocsCatalogue } from '../../app/docs/catalogue.server.js';
import { extractPageSamples, type PageStep } from '../../app/docs/samples.server.js';
import { findProjectRoot } from '../../server/portal.js';
import { testDocsAddresses } from '../portal/testPortal.js';
import { docsPagesInOrder } from './support/docsPages.js';

const pages = docsPagesInOrder();

/**
 * The reader's machine, the second-level domains RFC 2606 keeps for documentation, and the video
 * sites an offer's videoUrl must be on (data a sample sends, not a server it calls).
 */
const ALLOWED_HOST =
  /^(localhost|127\.0\.0\.1|(.+\.)?example\.(com|net|org)|(www\.)?(youtube\.com|youtu\.be|vimeo\.com|dailymotion\.com|dai\.ly))$/;

const BASE_URL = /\{\{BASE_URL\}\}|\$\{?BASE_URL\b|\{BASE_URL\}|\bbaseUrl: BASE_URL\b/;

describe('the addresses of the docs', () => {
  it('are replaced by those of the configuration, and an unknown one is an error', () => {
    const addresses = { baseUrl: 'https://sandbox.example.net', supportEmail: 'providers@example.net' };
    expect(withAddresses('curl {{BASE_URL}}/x; mail {{ SUPPORT_EMAIL }}', 'page.md', addresses)).toBe(
      'curl https://sandbox.example.net/x; mail providers@example.net',
    );
    expect(() => withAddresses('{{PRODUCTION_HOST}}', 'page.md', addresses)).toThrow(
      'page.md: no address {{PRODUCTION_HOST}} (known: BASE_URL, SUPPORT_EMAIL)',
    );
  });

  it('name no host but the reader’s machine and the example domains, on any page', () => {
    const hosts = pages.flatMap(({ file, source }) =>
      [...source.matchAll(/\bhttps?:\/\/([^/\s"'`)\]:]+)/g)]
        .map((match) => match[1])
        .filter((host) => !ALLOWED_HOST.test(host))
        .map((host) => `${file}: ${host}`),
    );
    expect(hosts).toEqual([]);
  });

  it('call the API at the configured address in every sample, in every language', () => {
    const problems = pages.flatMap(({ file, source }) =>
      extractPageSamples(source, file).steps.flatMap((step) => {
        if (step.kind !== 'sample') return [];
        const { sample } = step;
        return [sample.curl, ...Object.values(sample.equivalents)]
          .filter((code) => !BASE_URL.test(code))
          .map((code) => `${file}:${sample.line}: ${code.split('\n')[0]}`);
      }),
    );
    expect(problems).toEqual([]);
  });

  it('set BASE_URL once, in each language, before the first sample that uses it', () => {
    const problems = pages.flatMap(({ file, source }) => {
      const { steps } = extractPageSamples(source, file);
      // Every language the page's samples are written in: curl, and those of their tabs.
      const languages = new Set(['shell']);
      for (const step of steps)
        if (step.kind === 'sample') for (const tab in step.sample.equivalents) languages.add(tab);
      const setsBaseUrl = (step: PageStep) =>
        step.kind === 'setup' &&
        [...languages].every((language) =>
          /BASE_URL\s*=\s*['"]?\{\{BASE_URL\}\}/.test(step.code[language as keyof typeof step.code] ?? ''),
        );
      const firstSample = steps.findIndex(
        (step) => step.kind === 'sample' && /\$\{?BASE_URL|\{BASE_URL\}(?!\})/.test(JSON.stringify(step.sample)),
      );
      if (firstSample === -1) return [];
      return steps.slice(0, firstSample).some(setsBaseUrl) ? [] : [file];
    });
    expect(problems).toEqual([]);
  });

  it('show the configured address in every page that calls the API, and no token is left', () => {
    const catalogue = loadDocsCatalogue(join(findProjectRoot(), 'docs', 'pages'), testDocsAddresses);
    const rendered = [...catalogue.pages.entries(), ['change-logs', catalogue.changeLog] as const];
    for (const [path, page] of rendered) {
      expect(page.html, path).not.toMatch(/\{\{\s*[A-Z_]+\s*\}\}/);
    }
    for (const { file, source } of pages) {
      if (!source.includes('{{BASE_URL}}')) continue;
      const path = file.replace(/^docs\/pages\//, '').replace(/\.md$/, '');
      const page = path === 'index' ? catalogue.pages.get('') : catalogue.pages.get(path);
      expect(page?.html, file).toContain(testDocsAddresses.baseUrl);
    }
  });
});
