import {
  type CatalogueCategory,
  type CatalogueEntry,
  catalogueEntries,
} from '../../graphql/offers/eanCatalogue/catalogueData.js';
import {
  educationalDomains,
  nationalPrograms,
  studentLevels,
} from '../../graphql/collective/reference/educationalData.js';
import {
  educationalInstitutions,
  SANDBOX_INSTITUTION_UAI,
} from '../../graphql/collective/reference/institutionData.js';
import { type EanRejection, eanRejectionOf } from '../../graphql/offers/eanCatalogue/eanRule.js';
import { demoOfferer, demoProvider, demoVenues } from '../../graphql/providers/sandboxData.js';
import { cell, codeCell, count, markdownTable } from './markdownTable.server.js';

/*
 * The test-data page's lists, written from the very modules the server loads at start-up (the EAN
 * catalogue, the school platform's reference data, the demo sandbox), so the page cannot list an
 * EAN or an institution the server does not know. Each function returns a Markdown section.
 */

const CATEGORY_LABELS: Record<CatalogueCategory, string> = {
  LIVRE_PAPIER: 'paper book',
  SUPPORT_PHYSIQUE_MUSIQUE_CD: 'CD',
  SUPPORT_PHYSIQUE_MUSIQUE_VINYLE: 'vinyl record',
  SUPPORT_PHYSIQUE_FILM: 'film (DVD, Blu-ray)',
  LIVRE_AUDIO_PHYSIQUE: 'audiobook',
  JEU_SUPPORT_PHYSIQUE: 'game',
};

/** What the EAN check and the bulk upsert answer for a catalogue entry: the server's own rule. */
export type EanOutcome = Exclude<EanRejection, 'notFound'> | 'available';

function eanOutcomeOf(entry: CatalogueEntry): EanOutcome {
  // An entry is in the catalogue: never notFound.
  return (eanRejectionOf(entry) ?? 'available') as EanOutcome;
}

export function catalogueByOutcome(): Record<EanOutcome, CatalogueEntry[]> {
  const groups: Record<EanOutcome, CatalogueEntry[]> = {
    available: [],
    subcategoryNotAllowed: [],
    notCompliantWithCgu: [],
  };
  for (const entry of catalogueEntries) groups[eanOutcomeOf(entry)].push(entry);
  return groups;
}

function credit(entry: CatalogueEntry): string {
  const names = [...new Set([entry.author, entry.performer].filter((name): name is string => name !== null))];
  return cell(names.join(' / '));
}

function eanTable(entries: CatalogueEntry[], last: { header: string; value(entry: CatalogueEntry): string }): string {
  return markdownTable(
    ['EAN', 'Title', 'Author or artist', 'Category', last.header],
    entries.map((entry) => [
      codeCell(entry.ean),
      cell(entry.title),
      credit(entry),
      CATEGORY_LABELS[entry.category],
      last.value(entry),
    ]),
  );
}

export function eanCatalogueSection(): string {
  const groups = catalogueByOutcome();
  const perCategory = (entries: CatalogueEntry[]) =>
    Object.entries(CATEGORY_LABELS)
      .map(([category, label]) => ({ label, size: entries.filter((entry) => entry.category === category).length }))
      .filter(({ size }) => size > 0)
      .map(({ label, size }) =>
        `${size} ${label}${size === 1 ? '' : 's'}`.replace('film (DVD, Blu-ray)s', 'films (DVD, Blu-ray)'),
      )
      .join(', ');
  return [
    `The catalogue holds ${count(catalogueEntries.length, 'product')}: ${groups.available.length} can be sold by EAN, ${groups.subcategoryNotAllowed.length} are refused for their category and ${groups.notCompliantWithCgu.length} are refused as not compliant with the terms of use. An EAN that is not in it answers \`notFound\`.`,
    `### Sold by EAN (\`available\`)`,
    `${perCategory(groups.available)}.`,
    eanTable(groups.available, { header: 'Description', value: (entry) => cell(entry.description ?? '') }),
    `### Refused for their category (\`subcategoryNotAllowed\`)`,
    `${perCategory(groups.subcategoryNotAllowed)}: known products that cannot be put on sale by their EAN alone.`,
    eanTable(groups.subcategoryNotAllowed, { header: 'Description', value: (entry) => cell(entry.description ?? '') }),
    `### Not compliant with the terms of use (\`notCompliantWithCgu\`)`,
    `${perCategory(groups.notCompliantWithCgu)}.`,
    eanTable(groups.notCompliantWithCgu, { header: 'Why', value: (entry) => cell(entry.description ?? '') }),
  ].join('\n\n');
}

export function educationalDomainsSection(): string {
  const programName = new Map(nationalPrograms.map((program) => [program.id, program.name]));
  return [
    `${count(educationalDomains.length, 'educational domain')} and ${count(nationalPrograms.length, 'national programme')}. A collective offer names its domains by id in \`domains\`, and may name one programme of those domains in \`nationalProgramId\`.`,
    markdownTable(
      ['Domain id', 'Domain', 'National programmes (id: name)'],
      educationalDomains.map((domain) => [
        String(domain.id),
        cell(domain.name),
        domain.nationalProgramIds.map((id) => `${id}: ${cell(programName.get(id) ?? '?')}`).join(', ') || 'none',
      ]),
    ),
  ].join('\n\n');
}

export function studentLevelsSection(): string {
  return [
    `${count(studentLevels.length, 'student level')}, the values of \`students\`:`,
    markdownTable(
      ['Value', 'Level'],
      studentLevels.map((level) => [codeCell(level.id), cell(level.name)]),
    ),
  ].join('\n\n');
}

/** The département of an institution: its UAI starts with the département's code on three characters. */
function departmentOf(uai: string): string {
  return uai.slice(0, 3).replace(/^0/, '');
}

export function institutionsSection(): string {
  const byDepartment = new Map<string, { institutions: number; cities: Set<string> }>();
  for (const institution of educationalInstitutions) {
    const department = departmentOf(institution.uai);
    const entry = byDepartment.get(department) ?? { institutions: 0, cities: new Set<string>() };
    entry.institutions += 1;
    entry.cities.add(institution.city);
    byDepartment.set(department, entry);
  }
  const inactive = educationalInstitutions.filter((institution) => !institution.isActive).length;
  return [
    `${count(educationalInstitutions.length, 'educational institution')} in ${count(byDepartment.size, 'département')}${inactive > 0 ? `, ${inactive} of them inactive` : ''}. Every collective offer names the one that may book it; any active one will do for your tests, such as the collège of UAI ${codeCell(SANDBOX_INSTITUTION_UAI)}, which the [mock pre-booking](/docs/integrations/adage_mocks) then books for.`,
    '### By département',
    markdownTable(
      ['Département', 'Institutions', 'Cities'],
      [...byDepartment]
        .sort(([left], [right]) => left.localeCompare(right))
        .map(([department, { institutions, cities }]) => [
          department,
          String(institutions),
          cell([...cities].sort().join(', ')),
        ]),
    ),
    '### Every institution',
    markdownTable(
      ['Id', 'UAI', 'Type', 'Name', 'Postal code', 'City', 'Active'],
      educationalInstitutions.map((institution) => [
        String(institution.id),
        codeCell(institution.uai),
        cell(institution.institutionType),
        cell(institution.name),
        institution.postalCode,
        cell(institution.city),
        institution.isActive ? 'yes' : 'no',
      ]),
    ),
  ].join('\n\n');
}

export function demoSandboxSection(): string {
  return [
    `The provider *${cell(demoProvider.name)}*, whose ticketing URLs are placeholders (${codeCell(demoProvider.bookingUrl)}, ${codeCell(demoProvider.cancelUrl)}, notifications to ${codeCell(demoProvider.notificationUrl)}); the offerer *${cell(demoOfferer.name)}* (SIREN ${codeCell(demoOfferer.siren)}${demoOfferer.allowedOnAdage ? ', allowed on the school platform' : ''}); and ${count(demoVenues.length, 'venue')}, with these ids on a fresh database:`,
    markdownTable(
      ['Id', 'Venue', 'Legal name', 'SIRET', 'Activity', 'Address'],
      demoVenues.map((venue, index) => [
        String(index + 1),
        cell(venue.publicName),
        cell(venue.legalName),
        venue.siret ? codeCell(venue.siret) : 'none (digital venue)',
        codeCell(venue.activityDomain),
        venue.address ? cell(`${venue.address.street}, ${venue.address.postalCode} ${venue.address.city}`) : 'none',
      ]),
    ),
  ].join('\n\n');
}
