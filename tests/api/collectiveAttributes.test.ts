import type { SqlEntityManager } from '@mikro-orm/knex';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EAC_FORMATS } from '../../graphql/collective/formats.js';
import {
  educationalDomains,
  nationalPrograms,
  studentLevels,
} from '../../graphql/collective/reference/educationalData.js';
import {
  EducationalDomain,
  EducationalInstitution,
  NationalProgram,
  StudentLevel,
} from '../../graphql/collective/reference/entities.js';
import {
  educationalInstitutions,
  type EducationalInstitutionEntry,
} from '../../graphql/collective/reference/institutionData.js';
import { loadEducationalReference } from '../../graphql/collective/reference/loader.js';
import { issueApiKey } from '../../graphql/providers/apiKeys.js';
import { Offerer } from '../../graphql/providers/Offerer.js';
import { Provider } from '../../graphql/providers/Provider.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { expectMatchesContract } from '../support/contract.js';
import { createSandbox } from '../support/fixtures.js';

const DOMAINS = '/v2/collective/educational-domains';
const PROGRAMS = '/v2/collective/national-programs/';
const LEVELS = '/v2/collective/student-levels';
const FORMATS = '/v2/collective/offers/formats';
const INSTITUTIONS = '/v2/collective/educational-institutions/';

/** An institution as the API answers it. */
const asAnswered = ({ id, uai, name, institutionType, city, postalCode }: EducationalInstitutionEntry) => ({
  id,
  uai,
  name,
  institutionType,
  city,
  postalCode,
});
/** The reference data filtered by hand, in id order: what the search should answer. */
const expected = (keep: (entry: EducationalInstitutionEntry) => boolean, limit = 20) =>
  [...educationalInstitutions]
    .sort((a, b) => a.id - b.id)
    .filter(keep)
    .slice(0, limit)
    .map(asAnswered);

describe('Collective offer attributes', () => {
  let testApp: TestApp;
  let sandbox: Awaited<ReturnType<typeof createSandbox>>;
  let key: string;

  const em = () => testApp.database.orm.em.fork();
  const sandboxKey = async () => {
    const fork = em();
    const issued = issueApiKey(fork, testApp.clock, {
      env: 'test',
      provider: fork.getReference(Provider, sandbox.provider.id),
      offerer: fork.getReference(Offerer, sandbox.offerer.id),
    });
    await fork.flush();
    return issued.key;
  };
  /** GET, checked against the contract under the path the document declares. */
  const get = async (path: string, openApiPath = path, apiKey: string | null = key) => {
    const call = request(testApp.app).get(path);
    const response = await (apiKey ? call.set('Authorization', `Bearer ${apiKey}`) : call);
    expectMatchesContract(response, 'get', openApiPath);
    return response;
  };
  const institutions = async (query: string) => {
    const response = await get(`${INSTITUTIONS}${query}`, INSTITUTIONS);
    return response;
  };

  beforeAll(async () => {
    testApp = await createTestApp({ env: { AUTO_APPROVAL_DELAY_SECONDS: '0' } });
    sandbox = await createSandbox(em(), testApp.clock, 'test');
  });
  beforeEach(async () => {
    key = await sandboxKey();
  });
  afterAll(async () => {
    await testApp.close();
  });

  describe('educational domains', () => {
    it('lists the 16 domains in id order, each with its national programmes as the data links them', async () => {
      const response = await get(DOMAINS);
      expect(response.status).toBe(200);
      expect(response.body).toHaveLength(16);
      const programName = new Map(nationalPrograms.map((program) => [program.id, program.name]));
      expect(response.body).toEqual(
        educationalDomains.map((domain) => ({
          id: domain.id,
          name: domain.name,
          nationalPrograms: [...domain.nationalProgramIds]
            .sort((a, b) => a - b)
            .map((id) => ({ id, name: programName.get(id) })),
        })),
      );
      expect(response.body.find((domain: { id: number }) => domain.id === 6)).toEqual({
        id: 6,
        name: 'Cinéma, audiovisuel',
        nationalPrograms: [
          { id: 1, name: 'Collège au cinéma' },
          { id: 2, name: 'Lycéens et apprentis au cinéma' },
          { id: 3, name: 'École et cinéma' },
        ],
      });
      expect(response.body.find((domain: { id: number }) => domain.id === 3).nationalPrograms).toEqual([]);
    });

    it('needs an API key (401)', async () => {
      const response = await get(DOMAINS, DOMAINS, null);
      expect(response.status).toBe(401);
    });
  });

  describe('national programmes', () => {
    const all = nationalPrograms.map(({ id, name }) => ({ id, name }));

    it('lists the programmes in id order, at the path with its trailing slash', async () => {
      const response = await get(PROGRAMS);
      expect(response.status).toBe(200);
      expect(response.body).toEqual(all);
      expect(response.body).toHaveLength(10);
    });

    it('answers the same without the trailing slash', async () => {
      const response = await get(PROGRAMS.slice(0, -1), PROGRAMS);
      expect(response.status).toBe(200);
      expect(response.body).toEqual(all);
    });

    it('needs an API key (401)', async () => {
      expect((await get(PROGRAMS, PROGRAMS, null)).status).toBe(401);
    });
  });

  describe('student levels', () => {
    it('lists the levels from ECOLES_INNOVANTES to GENERAL0, in the data’s order', async () => {
      const response = await get(LEVELS);
      expect(response.status).toBe(200);
      expect(response.body).toEqual(studentLevels.map(({ id, name }) => ({ id, name })));
      const ids = response.body.map((level: { id: string }) => level.id);
      expect(ids[0]).toBe('ECOLES_INNOVANTES');
      expect(ids.at(-1)).toBe('GENERAL0');
      expect(ids.indexOf('COLLEGE6')).toBeLessThan(ids.indexOf('COLLEGE3'));
      expect(ids.indexOf('COLLEGE3')).toBeLessThan(ids.indexOf('GENERAL2'));
    });

    it('needs an API key (401)', async () => {
      expect((await get(LEVELS, LEVELS, null)).status).toBe(401);
    });
  });

  describe('offer formats', () => {
    it('lists the 8 EacFormat values, in the contract’s order (not read as an offer id)', async () => {
      const response = await get(FORMATS);
      expect(response.status).toBe(200);
      expect(response.body).toEqual([...EAC_FORMATS]);
      expect(response.body).toEqual([
        'Atelier de pratique',
        'Concert',
        'Conférence, rencontre',
        'Festival, salon, congrès',
        'Projection audiovisuelle',
        'Représentation',
        'Visite guidée',
        'Visite libre',
      ]);
    });

    it('needs an API key (401)', async () => {
      expect((await get(FORMATS, FORMATS, null)).status).toBe(401);
    });
  });

  describe('educational institutions', () => {
    it('answers the first 20 in id order by default', async () => {
      const response = await institutions('');
      expect(response.status).toBe(200);
      expect(response.body).toHaveLength(20);
      expect(response.body).toEqual(expected(() => true));
      expect(response.body[0]).toEqual({
        id: 1,
        uai: '0751021C',
        name: 'DU HAUT DES CHAMPS',
        institutionType: 'COLLEGE',
        city: 'PARIS',
        postalCode: '75002',
      });
    });

    it('answers the same without the trailing slash', async () => {
      const response = await get(INSTITUTIONS.slice(0, -1), INSTITUTIONS);
      expect(response.status).toBe(200);
      expect(response.body).toEqual(expected(() => true));
    });

    it('answers at most limit', async () => {
      const five = await institutions('?limit=5');
      expect(five.status).toBe(200);
      expect(five.body).toEqual(expected(() => true, 5));
      const all = await institutions('?limit=1000');
      expect(all.status).toBe(200);
      expect(all.body).toHaveLength(educationalInstitutions.length);
    });

    it('filters by id', async () => {
      const response = await institutions('?id=40');
      expect(response.status).toBe(200);
      expect(response.body).toEqual([
        { id: 40, uai: '0692624C', name: 'JEAN MOULIN', institutionType: 'COLLEGE', city: 'LYON', postalCode: '69008' },
      ]);
    });

    it('filters by a part of the name, in any case', async () => {
      const lower = await institutions('?name=moulin');
      expect(lower.status).toBe(200);
      expect(lower.body).toEqual(expected((entry) => entry.name.includes('MOULIN')));
      expect(lower.body.map((entry: { id: number }) => entry.id)).toContain(40);
      const mixed = await institutions('?name=MouLin');
      expect(mixed.body).toEqual(lower.body);
      const middle = await institutions(`?name=${encodeURIComponent('de saint')}`);
      expect(middle.status).toBe(200);
      expect(middle.body).toEqual(expected((entry) => entry.name.includes('DE SAINT')));
      expect(middle.body.length).toBeGreaterThanOrEqual(2);
    });

    it('filters by institution type, in any case', async () => {
      const response = await institutions(`?institutionType=${encodeURIComponent('lycee general')}&limit=1000`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual(expected((entry) => entry.institutionType === 'LYCEE GENERAL', 1000));
      expect(response.body.length).toBeGreaterThan(5);
      // Exact, not a part: LYCEE does not match LYCEE GENERAL.
      const part = await institutions('?institutionType=LYCEE');
      expect(part.status).toBe(200);
      expect(part.body).toEqual([]);
    });

    it('filters by a part of the city, in any case', async () => {
      const response = await institutions('?city=saint-d&limit=1000');
      expect(response.status).toBe(200);
      expect(response.body).toEqual(expected((entry) => entry.city.includes('SAINT-D'), 1000));
      expect(response.body.length).toBeGreaterThan(0);
      expect(response.body.every((entry: { city: string }) => entry.city === 'SAINT-DENIS')).toBe(true);
      const lyon = await institutions('?city=yo&limit=1000');
      expect(lyon.body).toEqual(expected((entry) => entry.city.includes('YO'), 1000));
      expect(lyon.body.some((entry: { city: string }) => entry.city === 'LYON')).toBe(true);
    });

    it('filters by postal code', async () => {
      const response = await institutions('?postalCode=75014');
      expect(response.status).toBe(200);
      expect(response.body).toEqual(expected((entry) => entry.postalCode === '75014'));
      expect(response.body.map((entry: { id: number }) => entry.id)).toEqual(expect.arrayContaining([5, 8, 15]));
    });

    it('filters by UAI, in lower case too', async () => {
      const response = await institutions('?uai=0751021c');
      expect(response.status).toBe(200);
      expect(response.body).toEqual(expected((entry) => entry.uai === '0751021C'));
      expect(response.body).toHaveLength(1);
      const upper = await institutions('?uai=0751021C');
      expect(upper.body).toEqual(response.body);
    });

    it('combines the filters', async () => {
      const response = await institutions(
        `?city=paris&institutionType=college&postalCode=75014&name=${encodeURIComponent('e')}`,
      );
      expect(response.status).toBe(200);
      expect(response.body).toEqual(
        expected(
          (entry) =>
            entry.city.includes('PARIS') &&
            entry.institutionType === 'COLLEGE' &&
            entry.postalCode === '75014' &&
            entry.name.includes('E'),
        ),
      );
      expect(response.body.length).toBeGreaterThan(1);
      const byIdAndName = await institutions('?id=40&name=moulin');
      expect(byIdAndName.body.map((entry: { id: number }) => entry.id)).toEqual([40]);
      const conflicting = await institutions('?id=40&city=paris');
      expect(conflicting.body).toEqual([]);
      const limited = await institutions('?city=paris&limit=3');
      expect(limited.body).toEqual(expected((entry) => entry.city.includes('PARIS'), 3));
    });

    it('answers [] when nothing matches', async () => {
      for (const query of [
        '?name=zzzz',
        '?id=99999',
        '?uai=0000000A',
        '?postalCode=00000',
        '?city=nowhere',
        '?institutionType=UNIVERSITE',
      ]) {
        const response = await institutions(query);
        expect(response.status, query).toBe(200);
        expect(response.body, query).toEqual([]);
      }
    });

    it.each(['limit=0', 'limit=abc', 'limit=-1', 'limit=1001', 'id=0', 'id=abc', 'postalCode=123456'])(
      'refuses %s (422)',
      async (query) => {
        const response = await institutions(`?${query}`);
        expect(response.status, JSON.stringify(response.body)).toBe(422);
        expect(response.body[0].loc).toContain(query.split('=')[0]);
      },
    );

    it('needs an API key (401)', async () => {
      const response = await get(INSTITUTIONS, INSTITUTIONS, null);
      expect(response.status).toBe(401);
    });
  });

  describe('the reference data in the database', () => {
    const counts = async () => {
      const fork = em();
      const links = await (fork as SqlEntityManager).getKnex()('educational_domain_program').count({ count: '*' });
      return {
        programs: await fork.count(NationalProgram, {}),
        domains: await fork.count(EducationalDomain, {}),
        links: Number(links[0].count),
        levels: await fork.count(StudentLevel, {}),
        institutions: await fork.count(EducationalInstitution, {}),
      };
    };

    it('holds the data as loaded at start-up', async () => {
      expect(await counts()).toEqual({
        programs: nationalPrograms.length,
        domains: educationalDomains.length,
        links: educationalDomains.reduce((sum, domain) => sum + domain.nationalProgramIds.length, 0),
        levels: studentLevels.length,
        institutions: educationalInstitutions.length,
      });
    });

    it('loading it again changes nothing (idempotent)', async () => {
      const before = await counts();
      const institutionsBefore = await em().find(EducationalInstitution, {}, { orderBy: { id: 'asc' } });
      await loadEducationalReference(em());
      await loadEducationalReference(em());
      expect(await counts()).toEqual(before);
      const institutionsAfter = await em().find(EducationalInstitution, {}, { orderBy: { id: 'asc' } });
      expect(institutionsAfter.map((row) => ({ ...row }))).toEqual(institutionsBefore.map((row) => ({ ...row })));
      const response = await get(DOMAINS);
      expect(response.status).toBe(200);
      expect(response.body).toHaveLength(16);
    });

    it('two loads at the same moment (two processes starting) leave the same rows', async () => {
      const before = await counts();
      await Promise.all([loadEducationalReference(em()), loadEducationalReference(em())]);
      expect(await counts()).toEqual(before);
    });
  });
});
