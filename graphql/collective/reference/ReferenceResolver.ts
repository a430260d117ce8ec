import type { FilterQuery } from '@mikro-orm/core';
import { Arg, Ctx, Field, FieldResolver, InputType, Int, Query, Resolver, Root } from 'type-graphql';
import type { GraphContext } from '../../shared/context.js';
import { EAC_FORMATS } from '../formats.js';
import { INSTITUTIONS_PER_SEARCH } from '../limits.js';
import { EducationalDomain, EducationalInstitution, NationalProgram, StudentLevel } from './entities.js';

@InputType({ description: 'Filters of the institution search; all optional, combined.' })
export class InstitutionFilter {
  @Field(() => Int, { nullable: true })
  id?: number | null;

  @Field(() => String, { nullable: true, description: 'Part of the name, any case.' })
  name?: string | null;

  @Field(() => String, { nullable: true, description: 'Part of the type (COLLEGE, LYCEE GENERAL, ...), any case.' })
  institutionType?: string | null;

  @Field(() => String, { nullable: true, description: 'Part of the city, any case.' })
  city?: string | null;

  @Field(() => String, { nullable: true, description: 'Part of the postal code.' })
  postalCode?: string | null;

  @Field(() => String, { nullable: true })
  uai?: string | null;
}

/** Wildcards typed by a user are dropped: LIKE has no escape character both engines share by default. */
function containing(text: string): string {
  return `%${text.toUpperCase().replace(/[%_\\]/g, '')}%`;
}

@Resolver(() => EducationalDomain)
export class ReferenceResolver {
  @Query(() => [EducationalDomain], {
    description: 'Domains of artistic and cultural education, with their national programmes.',
  })
  educationalDomains(@Ctx() context: GraphContext): Promise<EducationalDomain[]> {
    return context.em.find(EducationalDomain, {}, { populate: ['nationalPrograms'], orderBy: { id: 'asc' } });
  }

  @FieldResolver(() => [NationalProgram])
  nationalPrograms(@Root() domain: EducationalDomain): NationalProgram[] {
    return [...domain.nationalPrograms.getItems()].sort((a, b) => a.id - b.id);
  }

  @Query(() => [NationalProgram], {
    name: 'nationalPrograms',
    description: 'National programmes of artistic and cultural education.',
  })
  allNationalPrograms(@Ctx() context: GraphContext): Promise<NationalProgram[]> {
    return context.em.find(NationalProgram, {}, { orderBy: { id: 'asc' } });
  }

  @Query(() => [StudentLevel], { description: 'School levels, from primary school to lycée.' })
  studentLevels(@Ctx() context: GraphContext): Promise<StudentLevel[]> {
    return context.em.find(StudentLevel, {}, { orderBy: { position: 'asc' } });
  }

  @Query(() => [String], { description: 'The formats a collective offer may take.' })
  collectiveOfferFormats(): string[] {
    return [...EAC_FORMATS];
  }

  @Query(() => [EducationalInstitution], {
    description: 'Educational institutions matching every filter given, in id order.',
  })
  educationalInstitutions(
    @Ctx() context: GraphContext,
    @Arg('filter', () => InstitutionFilter, { nullable: true }) filter: InstitutionFilter | null,
    @Arg('limit', () => Int, { defaultValue: INSTITUTIONS_PER_SEARCH.byDefault }) limit: number,
  ): Promise<EducationalInstitution[]> {
    const where: FilterQuery<EducationalInstitution> = {};
    if (filter?.id != null) where.id = filter.id;
    if (filter?.uai) where.uai = filter.uai.toUpperCase();
    // Any part of each text matches, as in pass Culture's search. The registry writes names, types
    // and cities in capitals: an upper-cased pattern matches any case.
    if (filter?.postalCode) where.postalCode = { $like: containing(filter.postalCode) };
    if (filter?.institutionType) where.institutionType = { $like: containing(filter.institutionType) };
    if (filter?.name) where.name = { $like: containing(filter.name) };
    if (filter?.city) where.city = { $like: containing(filter.city) };
    return context.em.find(EducationalInstitution, where, {
      orderBy: { id: 'asc' },
      limit: Math.min(limit, INSTITUTIONS_PER_SEARCH.mostAnswered),
    });
  }
}
