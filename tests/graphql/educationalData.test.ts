import { describe, expect, it } from 'vitest';
import {
  educationalDomains,
  nationalPrograms,
  studentLevels,
} from '../../graphql/collective/reference/educationalData.js';
import {
  educationalInstitutions,
  SANDBOX_INSTITUTION_UAI,
} from '../../graphql/collective/reference/institutionData.js';

const institutionTypes = [
  'COLLEGE',
  'LYCEE GENERAL',
  'LYCEE POLYVALENT',
  'LYCEE PROFESSIONNEL',
  'LYCEE TECHNOLOGIQUE',
  'ECOLE ELEMENTAIRE',
  'ECOLE PRIMAIRE',
  'EREA',
];

function expectConsecutiveIds(list: readonly { id: number }[]): void {
  expect(list.length).toBeGreaterThan(0);
  expect(list.map((entry) => entry.id)).toEqual(list.map((_, index) => index + 1));
}

/** Département part of a UAI, as a postal code starts: '075' -> '75', '974' -> '974'. */
function departmentOfUai(uai: string): string {
  return uai.startsWith('97') ? uai.slice(0, 3) : uai.slice(1, 3);
}

describe('educational reference data', () => {
  it('numbers every list from 1 without gaps', () => {
    expectConsecutiveIds(nationalPrograms);
    expectConsecutiveIds(educationalDomains);
    expectConsecutiveIds(educationalInstitutions);
  });

  it('links domains only to existing national programmes', () => {
    const programIds = new Set(nationalPrograms.map((program) => program.id));
    for (const domain of educationalDomains) {
      for (const programId of domain.nationalProgramIds) expect(programIds.has(programId)).toBe(true);
      expect(new Set(domain.nationalProgramIds).size).toBe(domain.nationalProgramIds.length);
    }
  });

  it('puts every national programme under at least one domain', () => {
    const linked = new Set(educationalDomains.flatMap((domain) => domain.nationalProgramIds));
    for (const program of nationalPrograms) expect(linked.has(program.id), program.name).toBe(true);
  });

  it('has unique names for programmes and domains', () => {
    expect(new Set(nationalPrograms.map((p) => p.name)).size).toBe(nationalPrograms.length);
    expect(new Set(educationalDomains.map((d) => d.name)).size).toBe(educationalDomains.length);
  });

  it('has unique student levels, from school to the last year of lycée', () => {
    const ids = studentLevels.map((level) => level.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain('COLLEGE6');
    expect(ids).toContain('GENERAL0');
    expect(ids[0]).toBe('ECOLES_INNOVANTES');
    expect(ids.at(-1)).toBe('GENERAL0');
  });
});

describe('educational institutions', () => {
  it('holds at least 250 institutions', () => {
    expect(educationalInstitutions.length).toBeGreaterThanOrEqual(250);
  });

  it('has unique, well-formed UAIs', () => {
    const uais = educationalInstitutions.map((institution) => institution.uai);
    expect(new Set(uais).size).toBe(uais.length);
    for (const uai of uais) expect(uai).toMatch(/^\d{7}[A-Z]$/);
  });

  it('has five-digit postal codes in the département of the UAI', () => {
    for (const { uai, postalCode } of educationalInstitutions) {
      expect(postalCode).toMatch(/^\d{5}$/);
      expect(postalCode.startsWith(departmentOfUai(uai)), `${uai} ${postalCode}`).toBe(true);
    }
  });

  it('uses only the known institution types', () => {
    for (const institution of educationalInstitutions) {
      expect(institutionTypes).toContain(institution.institutionType);
    }
  });

  it('does not repeat a name within one city and type', () => {
    const keys = educationalInstitutions.map(
      (i) => `${i.city}|${i.postalCode.slice(0, 2)}|${i.institutionType}|${i.name}`,
    );
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('has some inactive institutions, but not the first one', () => {
    const inactive = educationalInstitutions.filter((institution) => !institution.isActive);
    expect(inactive.length).toBeGreaterThanOrEqual(1);
    expect(inactive.length).toBeLessThan(educationalInstitutions.length * 0.1);
    expect(educationalInstitutions[0]?.isActive).toBe(true);
  });

  it('suggests an active Paris collège for test offers', () => {
    const sandbox = educationalInstitutions.find((i) => i.uai === SANDBOX_INSTITUTION_UAI);
    expect(sandbox).toBeDefined();
    expect(sandbox?.isActive).toBe(true);
    expect(sandbox?.institutionType).toBe('COLLEGE');
    expect(sandbox?.city).toBe('PARIS');
  });
});
