import type { EntityManager } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/knex';
import { educationalDomains, nationalPrograms, studentLevels } from './educationalData.js';
import { educationalInstitutions } from './institutionData.js';
import { EducationalDomain, EducationalInstitution, NationalProgram, StudentLevel } from './entities.js';

/**
 * Writes the school platform's reference data into its tables at start-up: new rows are
 * added, known ones take the data's values. Idempotent; processes starting together take turns
 * to run it (server/db/referenceData.ts says why).
 */
export async function loadEducationalReference(em: EntityManager): Promise<void> {
  await em.upsertMany(
    NationalProgram,
    nationalPrograms.map(({ id, name }) => ({ id, name })),
    {
      onConflictFields: ['id'],
      onConflictAction: 'merge',
    },
  );
  await em.upsertMany(
    EducationalDomain,
    educationalDomains.map(({ id, name }) => ({ id, name })),
    {
      onConflictFields: ['id'],
      onConflictAction: 'merge',
    },
  );
  // The links are the data's: missing ones added, dropped ones removed.
  const knex = (em as SqlEntityManager).getKnex();
  for (const domain of educationalDomains) {
    const stale = knex('educational_domain_program').where('domain_id', domain.id);
    if (domain.nationalProgramIds.length > 0) stale.whereNotIn('program_id', [...domain.nationalProgramIds]);
    await em.getConnection().execute(stale.delete() as never);
  }
  const links = educationalDomains.flatMap((domain) =>
    domain.nationalProgramIds.map((programId) => ({ domain_id: domain.id, program_id: programId })),
  );
  if (links.length > 0) {
    await em
      .getConnection()
      .execute(
        knex('educational_domain_program').insert(links).onConflict(['domain_id', 'program_id']).ignore() as never,
      );
  }
  await em.upsertMany(
    StudentLevel,
    studentLevels.map(({ id, name }, position) => ({ id, name, position })),
    { onConflictFields: ['id'], onConflictAction: 'merge' },
  );
  await em.upsertMany(
    EducationalInstitution,
    educationalInstitutions.map((entry) => ({ ...entry })),
    {
      onConflictFields: ['id'],
      onConflictAction: 'merge',
    },
  );
}
