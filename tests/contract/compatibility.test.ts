/**
 * The contract cannot break by accident: the generated document is compared with the one last
 * released (contract/openapi.released.json), a breaking change fails unless the change log's
 * unreleased section declares it, and the change log's generated block says what changed.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { routes } from '../../rest-facade/index.js';
import { API_VERSION, generateOpenApiDocument } from '../../rest-facade/openapi.js';
import { loadConfig } from '../../server/config.js';
import {
  BREAKING_MARKER,
  generatedChanges,
  GENERATED_END,
  GENERATED_START,
  releaseChangeLog,
  renderChanges,
  undeclaredBreakingChanges,
  UNRELEASED_HEADING,
  UNRELEASED_INTRO,
  withGeneratedChanges,
} from '../../scripts/contract/changeLog.js';
import { checkContract, undeclaredReport } from '../../scripts/contract/check.js';
import { compareDocuments, type ContractChange } from '../../scripts/contract/compare.js';
import { type ContractDocument, readContractJson, type ReleaseRecord } from '../../scripts/contract/document.js';
import { openApiDocument } from '../support/contract.js';

describe('the released contract', () => {
  const check = checkContract(openApiDocument);

  it('is dated', () => {
    const record = readContractJson<ReleaseRecord>('releaseRecord');
    expect(record.releasedOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(record.apiVersion).toBe(API_VERSION);
  });

  it('has no breaking change that the change log does not declare', () => {
    expect(check.undeclared, undeclaredReport(check.undeclared)).toEqual([]);
  });

  it("is what the change log's generated block describes: run npm run contract:changes after changing the API", () => {
    expect(generatedChanges(check.changeLog)).toBe(renderChanges(check.changes));
  });
});

// A document of two real operations, changed as a careless edit would change it.
const small = (): ContractDocument =>
  generateOpenApiDocument(
    routes.filter((route) => ['GetProvider', 'UpdateProvider'].includes(route.operationId)),
    loadConfig({ APP_ENV: 'development' }),
  );
type Schemas = Record<string, Record<string, any>>;
const schemasOf = (document: ContractDocument) => document.components!.schemas as Schemas;
const changed = (edit: (schemas: Schemas, document: ContractDocument) => void) => {
  const document = small();
  edit(schemasOf(document), document);
  return document;
};
const describeChanges = (changes: ContractChange[]) =>
  changes.map(
    (change) => `${change.breaking ? 'breaking' : 'safe'} ${change.operation.operationId}: ${change.sentence}`,
  );

describe('the comparison', () => {
  const released = small();

  it('finds nothing between a document and itself', () => {
    expect(compareDocuments(released, small())).toEqual([]);
  });

  it('calls breaking a field removed or renamed in an answer', () => {
    const removed = changed((schemas) => {
      delete schemas.ProviderResponse.properties.logoUrl;
      schemas.ProviderResponse.required = schemas.ProviderResponse.required.filter(
        (name: string) => name !== 'logoUrl',
      );
    });
    expect(describeChanges(compareDocuments(released, removed))).toEqual(
      expect.arrayContaining([
        'breaking GetProvider: field `logoUrl` removed from the `200` answer',
        'breaking UpdateProvider: field `logoUrl` removed from the `200` answer',
      ]),
    );
    const renamed = changed((schemas) => {
      const response = schemas.ProviderResponse;
      response.properties.logo = response.properties.logoUrl;
      delete response.properties.logoUrl;
      response.required = response.required.map((name: string) => (name === 'logoUrl' ? 'logo' : name));
    });
    const changes = compareDocuments(released, renamed);
    expect(changes.filter((change) => change.breaking).length).toBeGreaterThan(0);
    expect(describeChanges(changes)).toContain('breaking GetProvider: field `logoUrl` removed from the `200` answer');
  });

  it('calls breaking a type narrowed, a new required input, an accepted value removed', () => {
    const narrowed = changed((schemas) => {
      schemas.ProviderUpdate.properties.bookingUrl.type = 'string';
    });
    expect(compareDocuments(released, narrowed).filter((change) => change.breaking)).not.toEqual([]);
    const required = changed((schemas) => {
      schemas.ProviderUpdate.required = ['notificationUrl'];
    });
    expect(describeChanges(compareDocuments(released, required))).toEqual([
      'breaking UpdateProvider: field `notificationUrl` of the body now required',
    ]);
    const withValues = (values: string[]) =>
      changed((schemas) => {
        schemas.ProviderUpdate.properties.kind = { type: 'string', enum: values };
      });
    expect(describeChanges(compareDocuments(withValues(['A', 'B']), withValues(['A'])))).toEqual([
      'breaking UpdateProvider: value `"B"` removed from `kind` in the body',
    ]);
  });

  it('calls breaking a status removed, and not breaking a status, a field or an operation added', () => {
    const statusRemoved = changed((_schemas, document) => {
      delete (document.paths!['/public/providers/v1/provider'] as any).patch.responses['400'];
    });
    expect(describeChanges(compareDocuments(released, statusRemoved))).toEqual([
      'breaking UpdateProvider: no longer answers `400`',
    ]);
    const added = changed((schemas, document) => {
      schemas.ProviderResponse.properties.siren = { type: 'string' };
      (document.paths!['/public/providers/v1/provider'] as any).get.responses['404'] = { description: 'Not found.' };
    });
    expect(describeChanges(compareDocuments(released, added))).toEqual([
      'safe GetProvider: field `siren` added to the `200` answer',
      'safe GetProvider: answers `404`',
      'safe UpdateProvider: field `siren` added to the `200` answer',
    ]);
    const withoutUpdate = changed((_schemas, document) => {
      delete (document.paths!['/public/providers/v1/provider'] as any).patch;
    });
    expect(describeChanges(compareDocuments(withoutUpdate, released))).toEqual(['safe UpdateProvider: new operation']);
    expect(describeChanges(compareDocuments(released, withoutUpdate))).toEqual([
      'breaking UpdateProvider: operation removed',
    ]);
  });
});

const changeLogWith = (unreleased: string) =>
  `# Change logs\n\n${UNRELEASED_HEADING}\n\n${UNRELEASED_INTRO}\n\n${unreleased}${GENERATED_START}\n${GENERATED_END}\n\n` +
  '## November 2026\n\n### 20 November 2026: older\n\n- Older entry.\n';

describe('the change log', () => {
  const released = small();
  const removed = changed((schemas) => {
    delete schemas.ProviderResponse.properties.logoUrl;
  });
  const changes = compareDocuments(released, removed);

  it('fails a breaking change until an entry with the marker names its operations', () => {
    expect(undeclaredBreakingChanges(changeLogWith(''), changes)).toHaveLength(2);
    const onlyOne = changeLogWith(
      `### Logos\n\n- ${BREAKING_MARKER} [Get my provider](/rest-api#tag/Providers/operation/GetProvider) no longer answers \`logoUrl\`.\n\n`,
    );
    expect(undeclaredBreakingChanges(onlyOne, changes).map((change) => change.operation.operationId)).toEqual([
      'UpdateProvider',
    ]);
    const both = changeLogWith(
      `### Logos\n\n- ${BREAKING_MARKER} \`GetProvider\` and \`UpdateProvider\` no longer answer the logo.\n\n`,
    );
    expect(undeclaredBreakingChanges(both, changes)).toEqual([]);
    // Named without the marker, or only in the generated block, a change is not declared.
    const unmarked = changeLogWith('### Logos\n\n- `GetProvider` and `UpdateProvider` lose the logo.\n\n');
    expect(undeclaredBreakingChanges(unmarked, changes)).toHaveLength(2);
    expect(undeclaredBreakingChanges(withGeneratedChanges(changeLogWith(''), changes), changes)).toHaveLength(2);
  });

  it('writes the changes between its markers, each operation linked, the prose around kept', () => {
    const prose = '### Logos\n\n- A sentence of ours.\n\n';
    const written = withGeneratedChanges(changeLogWith(prose), changes);
    expect(written).toContain(prose);
    expect(generatedChanges(written)).toBe(
      [
        '### Changes to the operations',
        '',
        '- [Get my provider](/rest-api#tag/Providers/operation/GetProvider) (`GET /public/providers/v1/provider`): **breaking:** field `logoUrl` removed from the `200` answer.',
        '- [Update my provider URLs](/rest-api#tag/Providers/operation/UpdateProvider) (`PATCH /public/providers/v1/provider`): **breaking:** field `logoUrl` removed from the `200` answer.',
      ].join('\n'),
    );
    expect(withGeneratedChanges(written, [])).toBe(changeLogWith(prose));
  });

  it('moves the unreleased entries under their date on release, and leaves the section ready', () => {
    const unreleased = withGeneratedChanges(changeLogWith('### Logos\n\n- A sentence of ours.\n\n'), changes);
    const sameMonth = releaseChangeLog(unreleased, new Date('2026-11-28T00:00:00Z'));
    expect(sameMonth).toBe(
      [
        '# Change logs',
        '',
        UNRELEASED_HEADING,
        '',
        UNRELEASED_INTRO,
        '',
        GENERATED_START,
        GENERATED_END,
        '',
        '## November 2026',
        '',
        '### 28 November 2026: logos',
        '',
        '- A sentence of ours.',
        '',
        '### 28 November 2026: changes to the operations',
        '',
        generatedChanges(unreleased).split('\n').slice(2).join('\n'),
        '',
        '### 20 November 2026: older',
        '',
        '- Older entry.',
        '',
      ].join('\n'),
    );
    const nextMonth = releaseChangeLog(unreleased, new Date('2026-12-02T00:00:00Z'));
    expect(nextMonth).toContain('## December 2026\n\n### 2 December 2026: logos\n');
    expect(nextMonth.indexOf('## December 2026')).toBeLessThan(nextMonth.indexOf('## November 2026'));
    expect(generatedChanges(nextMonth)).toBe('');
    // Nothing unreleased: nothing moves.
    expect(releaseChangeLog(changeLogWith(''), new Date('2026-12-02T00:00:00Z'))).toBe(changeLogWith(''));
  });

  it('is the page the portal shows, with its unreleased section and empty markers by default', () => {
    const page = readFileSync('docs/pages/change-logs.md', 'utf8');
    expect(page).toContain(`${UNRELEASED_HEADING}\n\n${UNRELEASED_INTRO}\n`);
    expect(page).toContain(GENERATED_START);
  });
});
