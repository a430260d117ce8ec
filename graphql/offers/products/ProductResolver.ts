import { Arg, Args, Ctx, Field, FieldResolver, Int, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql';
import { venueInScope, venueLinkInScope } from '../../providers/access.js';
import type { GraphContext } from '../../shared/context.js';
import { NotFoundError, type ValidationIssue, ValidationFailedError } from '../../shared/errors.js';
import { offerInScope, offerViewInScope, requireIndividualOfferRights } from '../access.js';
import { eanAvailability } from '../eanCatalogue/availability.js';
import { isValidEan } from '../eanCatalogue/ean.js';
import { Offer } from '../Offer.js';
import { forgetOffers, productStockOf, type ProductStockView } from '../offerBatch.js';
import { OfferPageArgs, readOfferKindPage, readOfferPage } from '../offerPage.js';
import { Stock } from '../Stock.js';
import { ProductCreateInput, ProductEditInput, ProductsByEanInput } from './inputs.js';
import { ProductImport } from './ProductImport.js';
import { requestProductImport } from './productImportJob.js';
import { createProduct, editProduct } from './productService.js';

@ObjectType({ description: 'EANs rejected by the catalogue, by reason.' })
class RejectedEans {
  @Field(() => [String], { description: 'Unknown to the catalogue (a wrong check digit included).' })
  notFound!: string[];

  @Field(() => [String], {
    description: 'Known, but of a category that cannot be sold by EAN (only paper books, CDs and vinyl records can).',
  })
  subcategoryNotAllowed!: string[];

  @Field(() => [String], { description: 'Not compliant with the terms of use.' })
  notCompliantWithCgu!: string[];
}

@ObjectType({ description: 'Which EANs can be put on sale by EAN, and why the others cannot.' })
class EanAvailabilityAnswer {
  @Field(() => [String])
  available!: string[];

  @Field(() => RejectedEans)
  rejected!: RejectedEans;
}

/**
 * Offers are read by valid EANs only: a wrong check digit is a 422 here (the availability check
 * answers it as not found). How many EANs and of what length: inputRules.ts.
 */
function checkEanCheckDigits(eans: string[]): void {
  const issues: ValidationIssue[] = eans.flatMap((ean, index) =>
    isValidEan(ean)
      ? []
      : [
          {
            loc: ['eans', String(index)],
            msg: `${ean} is not an EAN-13: its last digit is not its check digit`,
            type: 'ean_check_digit',
          },
        ],
  );
  if (issues.length > 0) throw new ValidationFailedError(issues);
}

/**
 * A product of the key, at a venue still linked to its provider: once the link is deactivated,
 * the product is not found (404), as pass Culture answers. Internal keys reach every product.
 */
async function productAtLinkedVenue(context: GraphContext, offer: Offer): Promise<Offer> {
  if (context.caller.kind !== 'provider') return offer;
  await venueLinkInScope(context.em, context.caller, offer.venue.id).catch(() => {
    throw new NotFoundError('Product offer not found');
  });
  return offer;
}

@Resolver(() => Offer)
export class ProductResolver {
  @Query(() => [Offer], { description: 'Product offers of the calling provider, one page in id order.' })
  products(@Ctx() context: GraphContext, @Args(() => OfferPageArgs) args: OfferPageArgs): Promise<Offer[]> {
    return readOfferKindPage(context, false, args);
  }

  @Query(() => Offer, { description: 'A product offer of the calling provider.' })
  async product(@Ctx() context: GraphContext, @Arg('id', () => Int) id: number): Promise<Offer> {
    return productAtLinkedVenue(context, await offerViewInScope(context, id, 'product'));
  }

  @Query(() => [Offer], {
    description:
      "The calling provider's product offers at one of its venues with these EANs (at most 100), the newest first.",
  })
  async productsByEan(
    @Ctx() context: GraphContext,
    @Arg('eans', () => [String]) eans: string[],
    @Arg('venueId', () => Int) venueId: number,
  ): Promise<Offer[]> {
    requireIndividualOfferRights(context);
    checkEanCheckDigits(eans);
    const venue = await venueInScope(context.em, context.caller, venueId);
    return readOfferPage(context, { isEvent: false, venueId: venue.id, eans: [...new Set(eans)] });
  }

  @Query(() => EanAvailabilityAnswer, { description: 'Which of these EANs (at most 100) can be put on sale by EAN.' })
  async eanAvailability(
    @Ctx() context: GraphContext,
    @Arg('eans', () => [String]) eans: string[],
  ): Promise<EanAvailabilityAnswer> {
    requireIndividualOfferRights(context);
    return eanAvailability(context.em, eans);
  }

  @Mutation(() => Offer, { description: 'Creates a product offer, with its stock if given.' })
  createProduct(
    @Ctx() context: GraphContext,
    @Arg('input', () => ProductCreateInput) input: ProductCreateInput,
  ): Promise<Offer> {
    return createProduct(context, input);
  }

  @Mutation(() => Offer, {
    description: 'Changes a product offer: fields left out stay as they are; stock: null deletes the stock.',
  })
  async editProduct(
    @Ctx() context: GraphContext,
    @Arg('id', () => Int) id: number,
    @Arg('input', () => ProductEditInput) input: ProductEditInput,
  ): Promise<Offer> {
    const edited = await editProduct(context, input, async (scoped) =>
      productAtLinkedVenue(scoped, await offerInScope(scoped, id, 'product')),
    );
    forgetOffers(context);
    return edited;
  }

  @Mutation(() => ProductImport, {
    description:
      'Queues a bulk upsert of up to 500 products by EAN at one location; the returned import shows its progress.',
  })
  importProductsByEan(
    @Ctx() context: GraphContext,
    @Arg('input', () => ProductsByEanInput) input: ProductsByEanInput,
  ): Promise<ProductImport> {
    return requestProductImport(context, input);
  }

  @Query(() => ProductImport, {
    description: 'A bulk upsert by EAN of the calling provider, with its progress and skipped items.',
  })
  async productImport(@Ctx() context: GraphContext, @Arg('id', () => Int) id: number): Promise<ProductImport> {
    const found = await context.em.findOne(
      ProductImport,
      context.caller.kind === 'provider' ? { id, provider: context.caller.providerId } : { id },
    );
    if (!found) throw new NotFoundError('Product import not found');
    // The import's venue must be one the key reaches (a key is tied to one offerer of its provider).
    await venueInScope(context.em, context.caller, found.location.venueId).catch(() => {
      throw new NotFoundError('Product import not found');
    });
    return found;
  }

  @FieldResolver(() => Stock, {
    nullable: true,
    description: "A product's stock; null for an event or a product without stock.",
  })
  stock(@Root() offer: Offer, @Ctx() context: GraphContext): Promise<ProductStockView | null> | null {
    return offer.isEvent ? null : productStockOf(context, offer.id);
  }
}
