import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * A product the platform knows by its EAN: what a bookshop or record shop may put on sale
 * by EAN alone. Loaded from the catalogue data at start-up (loader.ts).
 */
@Entity({ tableName: 'catalogue_product' })
export class CatalogueProduct {
  @PrimaryKey({ type: 'string', length: 13 })
  ean!: string;

  @Property({ type: 'string', length: 140 })
  title!: string;

  @Property({ type: 'string', length: 200, nullable: true })
  author: string | null = null;

  @Property({ type: 'string', length: 200, nullable: true })
  performer: string | null = null;

  /** A category id of the offer catalogue (LIVRE_PAPIER, SUPPORT_PHYSIQUE_MUSIQUE_CD, ...). */
  @Property({ type: 'string', length: 50 })
  category!: string;

  @Property({ type: 'string', length: 50, nullable: true })
  musicType: string | null = null;

  /** False: the product may not be offered under the terms of use. */
  @Property({ type: 'boolean' })
  compliant!: boolean;

  @Property({ type: 'text', nullable: true })
  description: string | null = null;
}
