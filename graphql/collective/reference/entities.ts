import { Entity, ManyToMany, PrimaryKey, Property, Collection } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';

/** The school platform's reference data, loaded into tables at start-up (see loader.ts). */

@ObjectType({ description: 'A national programme of artistic and cultural education.' })
@Entity({ tableName: 'national_program' })
export class NationalProgram {
  @Field(() => Int)
  @PrimaryKey({ type: 'integer', autoincrement: false })
  id!: number;

  @Field(() => String)
  @Property({ type: 'string', length: 140 })
  name!: string;
}

@ObjectType({ description: 'A domain of artistic and cultural education, with its national programmes.' })
@Entity({ tableName: 'educational_domain' })
export class EducationalDomain {
  @Field(() => Int)
  @PrimaryKey({ type: 'integer', autoincrement: false })
  id!: number;

  @Field(() => String)
  @Property({ type: 'string', length: 140 })
  name!: string;

  @ManyToMany(() => NationalProgram, undefined, {
    pivotTable: 'educational_domain_program',
    joinColumn: 'domain_id',
    inverseJoinColumn: 'program_id',
  })
  nationalPrograms = new Collection<NationalProgram>(this);
}

@ObjectType({ description: 'A school level a collective offer is meant for.' })
@Entity({ tableName: 'student_level' })
export class StudentLevel {
  @Field(() => String, { description: 'Such as COLLEGE6.' })
  @PrimaryKey({ type: 'string', length: 40 })
  id!: string;

  @Field(() => String)
  @Property({ type: 'string', length: 100 })
  name!: string;

  /** Order from primary school to lycée. */
  @Property({ type: 'integer' })
  position!: number;
}

@ObjectType({ description: 'A school or other educational institution of the school platform.' })
@Entity({ tableName: 'educational_institution' })
export class EducationalInstitution {
  @Field(() => Int)
  @PrimaryKey({ type: 'integer', autoincrement: false })
  id!: number;

  @Field(() => String, { description: 'National identifier: 7 digits and a letter.' })
  @Property({ type: 'string', length: 8, unique: true })
  uai!: string;

  @Field(() => String)
  @Property({ type: 'string', length: 200 })
  name!: string;

  @Field(() => String)
  @Property({ type: 'string', length: 60 })
  institutionType!: string;

  @Field(() => String)
  @Property({ type: 'string', length: 100 })
  city!: string;

  @Field(() => String)
  @Property({ type: 'string', length: 5 })
  postalCode!: string;

  @Field(() => Boolean, { description: 'Inactive institutions cannot be named on an offer.' })
  @Property({ type: 'boolean' })
  isActive!: boolean;
}

export const referenceEntities = [NationalProgram, EducationalDomain, StudentLevel, EducationalInstitution];
