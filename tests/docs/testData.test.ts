/**
 * The test-data page lists what the server knows: every EAN it shows is in the catalogue the
 * server loads, sorted as the server's own EAN check sorts it, and every count it states is the
 * count of the module it was written from.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expandGeneratedSections } from '../../app/docs/generatedSections.server.js';
import { catalogueByOutcome } from '../../app/docs/testData.server.js';
import { loadDocsCatalogue } from '../../app/docs/catalogue.server.js';
import { testDocsAddresses } from '../portal/testPortal.js';
import {
  educationalDomains,
  nationalPrograms,
  studentLevels,
} from '../../graphql/collective/reference/educationalData.js';
import { educationalInstitutions } from '../../graphql/collective/reference/institutionData.js';
import { eanAvailability } from '../../graphql/offers/eanCatalogue/availability.js';
import { catalogueEntries } from '../../graphql/offers/eanCatalogue/catalogueData.js';
import { Venue } from '../../graphql/providers/Venue.js';
import { ensureDemoSandbox } from '../../server/demo.js';
import { findProjectRoot } from '../../server/portal.js';
import { createTestApp, type TestApp } from '../support/app.js';

const PAGE = join('docs', 'pages', 'integrations', 'test-data.md');
const source = readFileSync(join(findProjectRoot(), PAGE), 'utf8');
const expanded = expandGeneratedSections(source, PAGE);
/** The demo provider is the operators' business: their page about running the platform shows it. */
const OPERATOR_PAGE = join('docs', 'pages', 'self-hosting', 'running-the-platform.md');
const operatorSource = readFileSync(join(findProjectRoot(), OPERATOR_PAGE), 'utf8');
const operatorExpanded = expandGeneratedSections(operatorSource, OPERATOR_PAGE);

/** The EANs of the page's tables, under each heading of level 3 (a table row starts with an EAN in a code span). */
function eansByHeading(markdown: string): Map<string, string[]> {
  const sections = new Map<string, string[]>();
  let heading = '';
  for (const line of markdown.split('\n')) {
    if (line.startsWith('#')) heading = line;
    const ean = /^\| `(\d{13})` \|/.exec(line)?.[1];
    if (ean) sections.set(heading, [...(sections.get(heading) ?? []), ean]);
  }
  return sections;
}

const sectionEans = (fragment: string) =>
  [...eansByHeading(expanded)].find(([heading]) => heading.includes(fragment))?.[1] ?? [];

describe('the test-data page', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it('is written from the data: its Markdown names sections, not values', () => {
    for (const name of ['ean-catalogue', 'educational-domains', 'student-levels', 'educational-institutions']) {
      expect(source).toContain(`<!-- generated: ${name} -->`);
    }
    expect(operatorSource).toContain('<!-- generated: demo-sandbox -->');
    expect(expanded).not.toContain('<!-- generated:');
    expect(operatorExpanded).not.toContain('<!-- generated:');
    expect(() => expandGeneratedSections('<!-- generated: nothing-such -->\n', 'x.md')).toThrow(
      'x.md: no generated section "nothing-such"',
    );
  });

  it('lists every EAN of the catalogue once, each under the answer the server gives it', async () => {
    const listed = [...eansByHeading(expanded).values()].flat();
    expect(listed).toHaveLength(catalogueEntries.length);
    expect(new Set(listed)).toEqual(new Set(catalogueEntries.map((entry) => entry.ean)));
    const server = await eanAvailability(testApp.runtime.orm.em.fork(), listed);
    expect(server.rejected.notFound).toEqual([]);
    expect(sectionEans('(`available`)')).toEqual(server.available);
    expect(sectionEans('(`subcategoryNotAllowed`)')).toEqual(server.rejected.subcategoryNotAllowed);
    expect(sectionEans('(`notCompliantWithCgu`)')).toEqual(server.rejected.notCompliantWithCgu);
  });

  it('shows only EANs the server sorts as the page says, in its prose and samples too', async () => {
    const mentioned = [...new Set(source.match(/\b\d{13}\b/g) ?? [])];
    const server = await eanAvailability(testApp.runtime.orm.em.fork(), mentioned);
    // The page's unknown EANs are there on purpose: 9782070047338 with a wrong check digit, and a
    // real record's EAN, which pass Culture's own test data lists.
    expect(server.rejected.notFound).toEqual(['9782070047339', '3700551782888']);
  });

  it('states the counts of the modules it was written from', () => {
    const groups = catalogueByOutcome();
    const stated = (pattern: RegExp) => [...expanded.matchAll(pattern)].map((match) => Number(match[1]));
    expect(stated(/(\d+) products?\b/g)).toEqual([catalogueEntries.length]);
    expect(expanded).toContain(
      `${groups.available.length} can be sold by EAN, ${groups.subcategoryNotAllowed.length} are refused for their category and ${groups.notCompliantWithCgu.length} are refused`,
    );
    expect(stated(/(\d+) educational domains?\b/g)).toEqual([educationalDomains.length]);
    expect(stated(/(\d+) national programmes?\b/g)).toEqual([nationalPrograms.length]);
    expect(stated(/(\d+) student levels?\b/g)).toEqual([studentLevels.length]);
    expect(stated(/(\d+) educational institutions?\b/g)).toEqual([educationalInstitutions.length]);
    const institutionRows = expanded.split('\n').filter((line) => /^\| \d+ \| `[0-9]{7}[A-Z]` \|/.test(line));
    expect(institutionRows).toHaveLength(educationalInstitutions.length);
    const byDepartment = expanded.split('### By département')[1].split('###')[0];
    const summed = [...byDepartment.matchAll(/^\| \w+ \| (\d+) \|/gm)].reduce(
      (sum, match) => sum + Number(match[1]),
      0,
    );
    expect(summed).toBe(educationalInstitutions.length);
  });

  it("leaves to the operators' page the demo sandbox that npm start creates, shown there ids included", async () => {
    expect(source).not.toContain('demo-sandbox');
    const app = await createTestApp({ database: testApp.database });
    try {
      const sandbox = (await ensureDemoSandbox(app.runtime))!;
      const venues = await app.runtime.orm.em.fork().find(Venue, {}, { populate: ['address'], orderBy: { id: 'asc' } });
      for (const venue of venues) {
        const row = operatorExpanded
          .split('\n')
          .find((line) => line.startsWith(`| ${venue.id} | ${venue.publicName} |`));
        expect(row, `venue ${venue.id}`).toBeDefined();
        expect(row).toContain(venue.siret ? `\`${venue.siret}\`` : 'none (digital venue)');
        if (venue.address)
          expect(row).toContain(`${venue.address.street}, ${venue.address.postalCode} ${venue.address.city}`);
      }
      expect(venues).toHaveLength(sandbox.venues.length);
      expect(operatorExpanded).toContain(`*${sandbox.provider.name}*`);
      expect(operatorExpanded).toContain(`*${sandbox.offerer.name}* (SIREN \`${sandbox.offerer.siren}\``);
    } finally {
      await app.close();
    }
  });

  it('is rendered with its generated tables by the docs catalogue', () => {
    const page = loadDocsCatalogue(join(findProjectRoot(), 'docs', 'pages'), testDocsAddresses).pages.get(
      'integrations/test-data',
    )!;
    expect(page.html).toContain('<code>9782070047338</code>');
    expect(page.html).toContain(`<code>${educationalInstitutions.at(-1)!.uai}</code>`);
    expect(page.toc.map((entry) => entry.text)).toContain('Every institution');
  });
});
