import { Field, InputType, Int } from 'type-graphql';
import { OfferFields, withOfferCreationFields, withOfferEditionFields } from '../offerInputs.js';

@InputType()
export class NewEventPriceCategoryInput {
  @Field(() => String)
  label!: string;

  @Field(() => Int, { description: 'Euro cents.' })
  price!: number;

  @Field(() => String, { nullable: true })
  idAtProvider?: string | null;
}

/** Event fields shared by creation and edition. Not emitted on its own: only its subclasses are referenced. */
@InputType()
class EventFields extends OfferFields {
  @Field(() => Int, { nullable: true, description: 'Minutes.' })
  eventDuration?: number | null;

  @Field(() => String, { nullable: true, description: 'A public video page on a video-sharing site; null removes it.' })
  videoUrl?: string | null;
}

@InputType({ description: 'A new event offer.' })
export class EventCreateInput extends withOfferCreationFields(EventFields) {
  @Field(() => Boolean)
  hasTicket!: boolean;

  @Field(() => [NewEventPriceCategoryInput], { nullable: true })
  priceCategories?: NewEventPriceCategoryInput[] | null;
}

@InputType({ description: 'Changes to an event offer: leave a field out to keep it.' })
export class EventEditInput extends withOfferEditionFields(EventFields) {
  @Field(() => Boolean, { nullable: true })
  hasTicket?: boolean | null;

  @Field(() => Boolean, { nullable: true })
  isActive?: boolean | null;
}
