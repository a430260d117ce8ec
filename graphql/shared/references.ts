import { Directive, Field, Int, ObjectType } from 'type-graphql';

/**
 * Entity stubs: how a subgraph points at an entity another subgraph owns. Only the key
 * is known here; the gateway asks the owner for the rest.
 */
@Directive('@key(fields: "id", resolvable: false)')
@ObjectType('Venue')
export class VenueReference {
  @Field(() => Int)
  id!: number;
}

@Directive('@key(fields: "id", resolvable: false)')
@ObjectType('Offer')
export class OfferReference {
  @Field(() => Int)
  id!: number;
}

export function referenceTo<T extends { id: number }>(entity: { id: number } | null | undefined): T | null {
  return entity ? ({ id: entity.id } as T) : null;
}

@Directive('@key(fields: "id", resolvable: false)')
@ObjectType('CollectiveOffer')
export class CollectiveOfferReference {
  @Field(() => Int)
  id!: number;
}

@Directive('@key(fields: "id", resolvable: false)')
@ObjectType('Provider')
export class ProviderReference {
  @Field(() => Int)
  id!: number;
}
