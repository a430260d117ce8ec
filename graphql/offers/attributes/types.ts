import { Field, ObjectType } from 'type-graphql';

@ObjectType({ description: 'A category-related field and whether it is mandatory on creation.' })
export class ConditionalField {
  @Field(() => String)
  name!: string;

  @Field(() => Boolean)
  mandatory!: boolean;
}

@ObjectType({ description: 'An offer category that the API can create, with the fields it carries.' })
export class CategoryDescription {
  @Field(() => String)
  id!: string;

  @Field(() => [ConditionalField])
  conditionalFields!: ConditionalField[];

  @Field(() => String, { nullable: true, description: 'DIGITAL or PHYSICAL when the category allows only one.' })
  locationType!: string | null;
}

@ObjectType({ description: 'A code of a reference list and its label.' })
export class LabelledCode {
  @Field(() => String)
  id!: string;

  @Field(() => String)
  label!: string;
}
