import type { GraphContext } from '../shared/context.js';
import { BadRequestError, type ValidationIssue, ValidationFailedError } from '../shared/errors.js';
import { issuesOf } from '../shared/validation.js';
import {
  type Category,
  categoryById,
  categoryFieldTypes,
  deprecatedMusicTypes,
  showTypes,
  titeliveMusicTypes,
} from './catalogue/index.js';
import { isValidEan } from './eanCatalogue/ean.js';
import { categoryFieldRules } from './fieldRules.js';
import { Offer, type OfferLocationType } from './Offer.js';

const musicTypeCodes = new Set<string>([...titeliveMusicTypes, ...deprecatedMusicTypes]);
const showTypeCodes = new Set<string>(showTypes);
/**
 * The former music type OTHER has no Titelive counterpart of its own: pass Culture records it as
 * "other music" and answers it as the Titelive AUTRES, as ours does.
 */
const RECORDED_MUSIC_TYPES: Record<string, string> = { OTHER: 'AUTRES' };

/** Thirteen digits in a row: an EAN, which belongs in `categoryRelatedFields`, not in a name. */
const EAN_IN_TEXT = /\d{13}/;

/** An offer's name may not carry an EAN: the offer would be found by it instead of by its product. */
export function checkNameHasNoEan(name: string | null | undefined): void {
  if (name != null && EAN_IN_TEXT.test(name)) {
    throw BadRequestError.on('name', 'An offer name cannot contain an EAN: give it in categoryRelatedFields.ean');
  }
}

/**
 * An offer waiting for its compliance review (PENDING) or refused by it (REJECTED) is frozen:
 * its fields, its dates and its price categories cannot change (400).
 */
export function checkEditable(offer: Pick<Offer, 'validation'>): void {
  if (offer.validation === 'PENDING' || offer.validation === 'REJECTED') {
    throw BadRequestError.on('global', `The offer is ${offer.validation}: it cannot be changed`);
  }
}

/** The creatable category of this kind named by `categoryRelatedFields.category`, or 422. */
export function creatableCategory(id: unknown, kind: 'event' | 'product'): Category {
  const category = typeof id === 'string' ? categoryById(id) : undefined;
  if (!category || !category.creatable || category.kind !== kind) {
    throw new ValidationFailedError([
      {
        loc: ['categoryRelatedFields', 'category'],
        msg: `Not ${kind === 'event' ? 'an event' : 'a product'} category the API can create`,
        type: 'union_tag_invalid',
      },
    ]);
  }
  return category;
}

/**
 * The category-related fields, checked against the catalogue: only the category's fields,
 * each of its type (an EAN with its check digit); on creation the mandatory ones present.
 * Returns them without `category`.
 */
export function checkCategoryRelatedFields(
  category: Category,
  fields: Record<string, unknown>,
  mode: 'create' | 'edit',
): Record<string, string> {
  const issues: ValidationIssue[] = [];
  const checked: Record<string, string> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (name === 'category' || value === undefined) continue;
    const loc = ['categoryRelatedFields', name];
    if (!(category.fields as readonly string[]).includes(name)) continue; // unknown fields are ignored, as the contract's variants allow
    const kind = categoryFieldTypes[name as keyof typeof categoryFieldTypes];
    // Text and EANs follow their field rules (the REST schemas' own); the codes, the catalogue's lists.
    const ruleIssues = kind === 'string' || kind === 'ean' ? issuesOf(categoryFieldRules[kind], value, loc) : [];
    if (ruleIssues.length > 0) {
      issues.push(...ruleIssues);
      continue;
    }
    if (value === null) {
      issues.push({ loc, msg: 'This field cannot be null', type: 'string_type' });
      continue;
    }
    if (typeof value !== 'string') {
      issues.push({ loc, msg: 'Input should be a valid string', type: 'string_type' });
      continue;
    }
    if (kind === 'musicType' && !musicTypeCodes.has(value)) {
      issues.push({ loc, msg: 'Unknown music type: see /public/offers/v1/music_types/all', type: 'enum' });
    } else if (kind === 'showType' && !showTypeCodes.has(value)) {
      issues.push({ loc, msg: 'Unknown show type: see /public/offers/v1/show_types', type: 'enum' });
    } else if (kind === 'ean' && !isValidEan(value)) {
      issues.push({ loc, msg: 'The last digit of this EAN is not its check digit', type: 'ean_check_digit' });
    } else {
      checked[name] = kind === 'musicType' ? (RECORDED_MUSIC_TYPES[value] ?? value) : value;
    }
  }
  if (mode === 'create') {
    for (const required of category.requiredOnCreate) {
      if (checked[required] === undefined && !issues.some((issue) => issue.loc[1] === required)) {
        issues.push({ loc: ['categoryRelatedFields', required], msg: 'Field required', type: 'missing' });
      }
    }
  }
  if (issues.length > 0) throw new ValidationFailedError(issues);
  return checked;
}

/** ONLINE categories take a digital location, OFFLINE ones a physical or address location. */
export function checkLocationFitsCategory(category: Category, locationType: OfferLocationType): void {
  if (category.locationType === 'ONLINE' && locationType !== 'digital') {
    throw BadRequestError.on('location', `The category ${category.id} is online only: give a digital location`);
  }
  if (category.locationType === 'OFFLINE' && locationType === 'digital') {
    throw BadRequestError.on(
      'location',
      `The category ${category.id} takes place at a venue or an address, not online`,
    );
  }
}

/**
 * Duo bookings, where the category allows them (asking for them elsewhere is 400). Left out,
 * `byDefault`: events have them where allowed, products not unless asked (the contract's defaults).
 */
export function resolveDoubleBookings(
  category: Category,
  requested: boolean | null | undefined,
  byDefault = false,
): boolean {
  if (requested === true && !category.canBeDuo) {
    throw BadRequestError.on('enableDoubleBookings', `The category ${category.id} does not allow duo bookings`);
  }
  return requested ?? byDefault;
}

/** Your identifiers are unique per venue: another offer of the venue holding it is 400. */
export async function checkIdAtProviderFree(
  context: GraphContext,
  venueId: number,
  idAtProvider: string | null | undefined,
  exceptOfferId?: number,
): Promise<void> {
  if (!idAtProvider) return;
  const taken = await context.em.findOne(Offer, {
    venue: venueId,
    idAtProvider,
    ...(exceptOfferId ? { id: { $ne: exceptOfferId } } : {}),
  });
  if (taken)
    throw BadRequestError.on(
      'idAtProvider',
      `Another offer of this venue already has the idAtProvider ${idAtProvider}`,
    );
}
