import type { SqlEntityManager } from '@mikro-orm/knex';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
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
import { educationalInstitutions } from '../../graphql/collective/reference/institutionData.js';
import { loadEducationalReference } from '../../graphql/collective/reference/loader.js';
import { routesByOperationId } from '../../rest-facade/index.js';
import { expectStatus } from '../support/api.js';
import { collectiveWorld, contractFormats } from '../support/collectiveWorld.js';
import { expectMatchesContract } from '../support/contract.js';

/** An institution as the API answers it. */
const asAnswered = ({ id, uai, name, institutionType, city, postalCode }: EducationalInstitution) => ({
  id,
  uai,
  name,
  institutionType,
  city,
  postalCode,
});

describe('Collective offer attributes', () => {
  const world = collectiveWorld();
  const { em } = world;
  const call = (
    operationId: 'ListEducationalDomains' | 'GetNationalPrograms' | 'ListStudentsLevels' | 'GetOffersFormats',
    key?: null,
  ) => world.api.call(operationId, { key });
  const institutions = (query: string, key?: null) =>
    world.api.call('ListEducationalInstitutions', { query: query.replace(/^\?/, '') || undefined, key });
  /** A route whose path ends with a slash, called without it: answered as the contract says all the same. */
  const withoutTrailingSlash = async (operationId: 'GetNationalPrograms' | 'ListEducationalInstitutions') => {
    const { method, path } = routesByOperationId[operationId];
    const response = await request(world.testApp.app)
      [method](path.slice(0, -1))
      .set('Authorization', `Bearer ${world.key}`);
    expectMatchesContract(response, method, path);
    return response;
  };
  /** The stored institutions kept, in id order, as the API answers them: what the search should answer. */
  const expected = async (keep: (entry: EducationalInstitution) => boolean, limit = 20) =>
    (await em().find(EducationalInstitution, {}, { orderBy: { id: 'asc' } }))
      .filter(keep)
      .slice(0, limit)
      .map(asAnswered);

  describe('educational domains', () => {
    it('lists the 16 domains in id order, each with its national programmes as the data links them', async () => {
      const response = await call('ListEducationalDomains');
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
      const response = await call('ListEducationalDomains', null);
      expect(response.status).toBe(401);
    });
  });

  describe('national programmes', () => {
    const all = nationalPrograms.map(({ id, name }) => ({ id, name }));

    it('lists the programmes in id order, at the path with its trailing slash', async () => {
      const response = await call('GetNationalPrograms');
      expect(response.status).toBe(200);
      expect(response.body).toEqual(all);
      expect(response.body).toHaveLength(10);
    });

    it('answers the same without the trailing slash', async () => {
      const response = await withoutTrailingSlash('GetNationalPrograms');
      expect(response.status).toBe(200);
      expect(response.body).toEqual(all);
    });

    it('needs an API key (401)', async () => {
      expect((await call('GetNationalPrograms', null)).status).toBe(401);
    });
  });

  describe('student levels', () => {
    it('lists the levels from ECOLES_INNOVANTES to GENERAL0, in the data’s order', async () => {
      const response = await call('ListStudentsLevels');
      expect(response.status).toBe(200);
      expect(response.body).toEqual(studentLevels.map(({ id, name }) => ({ id, name })));
      const ids = response.body.map((level: { id: string }) => level.id);
      expect(ids[0]).toBe('ECOLES_INNOVANTES');
      expect(ids.at(-1)).toBe('GENERAL0');
      expect(ids.indexOf('COLLEGE6')).toBeLessThan(ids.indexOf('COLLEGE3'));
      expect(ids.indexOf('COLLEGE3')).toBeLessThan(ids.indexOf('GENERAL2'));
    });

    it('needs an API key (401)', async () => {
      expect((await call('ListStudentsLevels', null)).status).toBe(401);
    });
  });

  describe('offer formats', () => {
    it('lists the EacFormat values of the contract, in its order, each one an offer takes (not read as an offer id)', async () => {
      const response = await call('GetOffersFormats');
      expectStatus(response, 200);
      expect(response.body).toEqual(contractFormats());
      // Every format listed is taken by a new offer, and stored as listed.
      const offer = await world.created({ formats: response.body });
      expect(offer.formats).toEqual(response.body);
      expect((await world.stored(offer.id)).formats).toEqual(response.body);
    });

    it('needs an API key (401)', async () => {
      expect((await call('GetOffersFormats', null)).status).toBe(401);
    });
  });

  describe('educational institutions', () => {
    it('answers the first 20 in id order by default', async () => {
      const response = await institutions('');
      expect(response.status).toBe(200);
      expect(response.body).toHaveLength(20);
      expect(response.body).toEqual(await expected(() => true));
    });

    it('answers the same without the trailing slash', async () => {
      const response = await withoutTrailingSlash('ListEducationalInstitutions');
      expect(response.status).toBe(200);
      expect(response.body).toEqual(await expected(() => true));
    });

    // As pass Culture's search: a limit above 20 (up to 1000 taken) answers 20.
    it('answers at most limit, and never more than 20', async () => {
      const one = await institutions('?limit=1');
      expect(one.status).toBe(200);
      expect(one.body).toEqual(await expected(() => true, 1));
      const five = await institutions('?limit=5');
      expect(five.status).toBe(200);
      expect(five.body).toEqual(await expected(() => true, 5));
      expect(await em().count(EducationalInstitution, {})).toBeGreaterThan(23);
      for (const query of ['?limit=23', '?limit=1000', '']) {
        const response = await institutions(query);
        expect(response.status, query).toBe(200);
        expect(response.body, query).toEqual(await expected(() => true, 20));
      }
    });

    it('filters by id', async () => {
      const response = await institutions('?id=40');
      expect(response.status).toBe(200);
      expect(response.body).toEqual(await expected((entry) => entry.id === 40));
      expect(response.body).toHaveLength(1);
    });

    it('filters by a part of the name, in any case', async () => {
      const lower = await institutions('?name=moulin');
      expect(lower.status).toBe(200);
      expect(lower.body).toEqual(await expected((entry) => entry.name.includes('MOULIN')));
      expect(lower.body.map((entry: { id: number }) => entry.id)).toContain(40);
      const mixed = await institutions('?name=MouLin');
      expect(mixed.body).toEqual(lower.body);
      const middle = await institutions(`?name=${encodeURIComponent('de saint')}`);
      expect(middle.status).toBe(200);
      expect(middle.body).toEqual(await expected((entry) => entry.name.includes('DE SAINT')));
      expect(middle.body.length).toBeGreaterThanOrEqual(2);
    });

    it('filters by any part of the institution type, in any case', async () => {
      const response = await institutions(`?institutionType=${encodeURIComponent('lycee general')}`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual(await expected((entry) => entry.institutionType.includes('LYCEE GENERAL')));
      expect(response.body.length).toBeGreaterThan(5);
      // A part, as pass Culture's search: LYCEE matches LYCEE GENERAL too, and "eral" the same.
      const part = await institutions('?institutionType=LYCEE');
      expect(part.status).toBe(200);
      expect(part.body).toEqual(await expected((entry) => entry.institutionType.includes('LYCEE')));
      expect(part.body.map((entry: { institutionType: string }) => entry.institutionType)).toContain('LYCEE GENERAL');
      const middle = await institutions('?institutionType=eral');
      expect(middle.body).toEqual(await expected((entry) => entry.institutionType.includes('ERAL')));
      expect(middle.body.length).toBeGreaterThan(0);
    });

    it('filters by a part of the city, in any case', async () => {
      const response = await institutions('?city=saint-d');
      expect(response.status).toBe(200);
      expect(response.body).toEqual(await expected((entry) => entry.city.includes('SAINT-D')));
      expect(response.body.length).toBeGreaterThan(0);
      expect(response.body.every((entry: { city: string }) => entry.city === 'SAINT-DENIS')).toBe(true);
      const lyon = await institutions('?city=yo');
      expect(lyon.body).toEqual(await expected((entry) => entry.city.includes('YO')));
      expect(lyon.body.some((entry: { city: string }) => entry.city === 'LYON')).toBe(true);
    });

    it('filters by postal code', async () => {
      const response = await institutions('?postalCode=75014');
      expect(response.status).toBe(200);
      expect(response.body).toEqual(await expected((entry) => entry.postalCode === '75014'));
      expect(response.body.map((entry: { id: number }) => entry.id)).toEqual(expect.arrayContaining([5, 8, 15]));
    });

    // As pass Culture's search: "41" finds 44100 as well as 41000.
    it('filters by any part of the postal code', async () => {
      for (const part of ['7501', '501', '14']) {
        const response = await institutions(`?postalCode=${part}`);
        expect(response.status, part).toBe(200);
        expect(response.body, part).toEqual(await expected((entry) => entry.postalCode.includes(part)));
        expect(response.body.length, part).toBeGreaterThan(0);
      }
      const middle = await institutions('?postalCode=501');
      expect(middle.body.some((entry: { postalCode: string }) => !entry.postalCode.startsWith('501'))).toBe(true);
    });

    it('filters by UAI, in lower case too', async () => {
      const response = await institutions('?uai=0751021c');
      expect(response.status).toBe(200);
      expect(response.body).toEqual(await expected((entry) => entry.uai === '0751021C'));
      expect(response.body).toHaveLength(1);
      const upper = await institutions('?uai=0751021C');
      expect(upper.body).toEqual(response.body);
    });

    it('combines the filters', async () => {
      // A part of each, as pass Culture's search takes them.
      const response = await institutions(
        `?city=ari&institutionType=olle&postalCode=014&name=${encodeURIComponent('e')}`,
      );
      expect(response.status).toBe(200);
      expect(response.body).toEqual(
        await expected(
          (entry) =>
            entry.city.includes('ARI') &&
            entry.institutionType.includes('OLLE') &&
            entry.postalCode.includes('014') &&
            entry.name.includes('E'),
        ),
      );
      expect(response.body.length).toBeGreaterThan(1);
      const byIdAndName = await institutions('?id=40&name=moulin');
      expect(byIdAndName.body.map((entry: { id: number }) => entry.id)).toEqual([40]);
      const conflicting = await institutions('?id=40&city=paris');
      expect(conflicting.body).toEqual([]);
      const limited = await institutions('?city=paris&limit=3');
      expect(limited.body).toEqual(await expected((entry) => entry.city.includes('PARIS'), 3));
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
      const response = await institutions('', null);
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
      // The institutions as the data lists them, which the search answers from.
      const rows = await em().find(EducationalInstitution, {}, { orderBy: { id: 'asc' } });
      expect(rows.map((row) => ({ ...row }))).toEqual([...educationalInstitutions].sort((a, b) => a.id - b.id));
    });

    it('loading it again changes nothing (idempotent)', async () => {
      const before = await counts();
      const institutionsBefore = await em().find(EducationalInstitution, {}, { orderBy: { id: 'asc' } });
      await loadEducationalReference(em());
      await loadEducationalReference(em());
      expect(await counts()).toEqual(before);
      const institutionsAfter = await em().find(EducationalInstitution, {}, { orderBy: { id: 'asc' } });
      expect(institutionsAfter.map((row) => ({ ...row }))).toEqual(institutionsBefore.map((row) => ({ ...row })));
      const response = await call('ListEducationalDomains');
      expect(response.status).toBe(200);
      expect(response.body).toHaveLength(16);
    });

    it('two loads at the same moment over loaded tables leave the same rows', async () => {
      const before = await counts();
      await Promise.all([loadEducationalReference(em()), loadEducationalReference(em())]);
      expect(await counts()).toEqual(before);
    });
  });
});
