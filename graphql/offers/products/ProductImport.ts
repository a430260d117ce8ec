import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { Provider } from '../../providers/Provider.js';
import { graphEnum } from '../../shared/graphEnums.js';

export const PRODUCT_IMPORT_STATUSES = ['QUEUED', 'RUNNING', 'DONE'] as const;
export type ProductImportStatus = (typeof PRODUCT_IMPORT_STATUSES)[number];
export const ProductImportStatusEnum = graphEnum(
  'ProductImportStatus',
  PRODUCT_IMPORT_STATUSES,
  'Where a bulk upsert by EAN stands.',
);

/** One product of a bulk upsert by EAN, as the request gave it (datetimes as ISO text). */
export interface ProductImportItem {
  ean: string;
  stock: { price: number; quantity: number | 'unlimited' | null; bookingLimitDatetime: string | null };
  publicationDatetime?: string | null;
  bookingAllowedDatetime?: string | null;
}

/** Where the imported products are offered. */
export interface ProductImportLocation {
  type: 'physical' | 'address';
  venueId: number;
  addressId?: number | null;
  addressLabel?: string | null;
}

/** Why an item of a bulk upsert was skipped. */
export type ProductImportRejectionReason =
  | 'invalidEan'
  | 'notFound'
  | 'subcategoryNotAllowed'
  | 'notCompliantWithCgu'
  | 'offerOfAnotherCategory'
  | 'offerRejected';

@ObjectType({ description: 'An item of a bulk upsert that was skipped, and why.' })
export class ProductImportRejection {
  @Field(() => String)
  ean!: string;

  @Field(() => String, {
    description:
      'invalidEan, notFound, subcategoryNotAllowed, notCompliantWithCgu, offerOfAnotherCategory or offerRejected.',
  })
  reason!: ProductImportRejectionReason;
}

/**
 * A bulk upsert by EAN (POST /products/ean): its items, and the progress of the job that
 * applies them, step by step, so that a restart resumes where the last step committed.
 */
@ObjectType({ description: 'A bulk upsert of products by EAN and its progress.' })
@Entity({ tableName: 'product_import' })
@Index({ properties: ['provider', 'id'] })
export class ProductImport {
  [OptionalProps]?:
    'status' | 'nextIndex' | 'createdCount' | 'updatedCount' | 'stocksDeletedCount' | 'rejected' | 'finishedAt';

  @Field(() => Int)
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => Provider, { deleteRule: 'cascade', index: false })
  provider!: Provider;

  @Property({ type: 'json' })
  location!: ProductImportLocation;

  @Property({ type: 'json' })
  items!: ProductImportItem[];

  @Field(() => ProductImportStatusEnum, { description: 'QUEUED, RUNNING or DONE.' })
  @Property({ type: 'string', length: 10 })
  status: ProductImportStatus = 'QUEUED';

  /** The first item not applied yet. */
  @Field(() => Int, { description: 'Items applied so far (skipped ones included).' })
  @Property({ type: 'integer' })
  nextIndex: number = 0;

  @Field(() => Int)
  @Property({ type: 'integer' })
  createdCount: number = 0;

  @Field(() => Int)
  @Property({ type: 'integer' })
  updatedCount: number = 0;

  @Field(() => Int, { description: 'Stocks deleted by a quantity of 0.' })
  @Property({ type: 'integer' })
  stocksDeletedCount: number = 0;

  @Field(() => [ProductImportRejection])
  @Property({ type: 'json' })
  rejected: ProductImportRejection[] = [];

  @Field(() => Date)
  @Property({ type: 'datetime' })
  createdAt!: Date;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  finishedAt: Date | null = null;
}
