import {
  type Category,
  categories,
  categoryFieldTypes,
  type CategoryFieldName,
  eventCategories,
  productCategories,
} from '../../graphql/offers/catalogue/index.js';
import { categoryFieldRules } from '../../graphql/offers/fieldRules.js';
import { DeprecatedMusicTypeEnum, ShowTypeEnum, TiteliveMusicTypeEnum } from '../schemas/enums.js';
import { z } from '../zod.js';

export type CategoryFieldsMode = 'create' | 'edit' | 'read';

function fieldSchema(name: CategoryFieldName): z.ZodType {
  switch (categoryFieldTypes[name]) {
    case 'musicType':
      return z.union([TiteliveMusicTypeEnum, DeprecatedMusicTypeEnum]);
    case 'showType':
      return ShowTypeEnum;
    case 'ean':
      return categoryFieldRules.ean.openapi({ description: 'EAN-13: 13 digits, the last one its check digit.' });
    default:
      return categoryFieldRules.string;
  }
}

/** One variant of `categoryRelatedFields`: the category and its fields, named like the reference's. */
function variantOf(category: Category, mode: CategoryFieldsMode) {
  const shape: Record<string, z.ZodType> = { category: z.literal(category.id) };
  for (const name of category.fields) {
    const required = mode === 'create' && category.requiredOnCreate.includes(name);
    shape[name] = required ? fieldSchema(name) : fieldSchema(name).optional();
  }
  return z.object(shape).openapi(`${category.id}_${mode}`);
}

/**
 * The discriminated union of the categories' fields of one kind: the creatable categories for
 * creation and edition, all of them for reading (offers of retired categories still exist).
 */
export function categoryRelatedFieldsOf(kind: 'event' | 'product', mode: CategoryFieldsMode) {
  const chosen =
    mode === 'read'
      ? Object.values(categories).filter((category) => category.kind === kind)
      : [...(kind === 'event' ? eventCategories() : productCategories())];
  const variants = chosen.map((category) => variantOf(category, mode));
  return z.discriminatedUnion(
    'category',
    variants as [ReturnType<typeof variantOf>, ...ReturnType<typeof variantOf>[]],
  );
}

export function eventCategoryRelatedFields(mode: CategoryFieldsMode) {
  return categoryRelatedFieldsOf('event', mode);
}
