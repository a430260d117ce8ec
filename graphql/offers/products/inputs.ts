import { Field, InputType, Int } from 'type-graphql';
import { type Quantity, QuantityScalar } from '../dates/types.js';
import { PRICE_MAX_CENTS } from '../limits.js';
import { OfferFields, OfferLocationInput, withOfferCreationFields, withOfferEditionFields } from '../offerInputs.js';

@InputType({
  description: "A product's stock: absent fields of an edition stay as they are, and so do a null price or quantity.",
})
export class ProductStockInput {
  @Field(() => Int, { nullable: true, description: `Euro cents, 0 to ${PRICE_MAX_CENTS}; required to create a stock.` })
  price?: number | null;

  @Field(() => QuantityScalar, {
    nullable: true,
    description: 'Items still on sale (booked ones come on top), or "unlimited"; absent on creation is unlimited.',
  })
  quantity?: Quantity | null;

  @Field(() => String, {
    nullable: true,
    description: 'A timezone-aware ISO 8601 datetime, ahead; null removes the booking limit.',
  })
  bookingLimitDatetime?: string | null;
}

@InputType({ description: 'A new product offer.' })
export class ProductCreateInput extends withOfferCreationFields(OfferFields) {
  @Field(() => ProductStockInput, { nullable: true })
  stock?: ProductStockInput | null;
}

@InputType({ description: 'Changes to a product offer: leave a field out to keep it; stock: null deletes the stock.' })
export class ProductEditInput extends withOfferEditionFields(OfferFields) {
  @Field(() => Boolean, { nullable: true })
  isActive?: boolean | null;

  @Field(() => ProductStockInput, { nullable: true })
  stock?: ProductStockInput | null;
}

@InputType({ description: 'One product of a bulk upsert by EAN.' })
export class ProductByEanInput {
  @Field(() => String, { description: 'EAN-13 of a product of the catalogue.' })
  ean!: string;

  @Field(() => ProductStockInput, { description: 'Its stock; a quantity of 0 deletes it.' })
  stock!: ProductStockInput;

  @Field(() => String, { nullable: true })
  publicationDatetime?: string | null;

  @Field(() => String, { nullable: true })
  bookingAllowedDatetime?: string | null;
}

@InputType({ description: 'A bulk upsert of products by EAN, at one location.' })
export class ProductsByEanInput {
  @Field(() => OfferLocationInput)
  location!: OfferLocationInput;

  @Field(() => [ProductByEanInput])
  products!: ProductByEanInput[];
}
