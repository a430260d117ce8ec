import { Query, Resolver } from 'type-graphql';
import {
  type Category,
  conditionalFieldsOf,
  deprecatedMusicTypes,
  eventCategories,
  labelOfDeprecatedMusicType,
  labelOfShowType,
  labelOfTiteliveEventMusicType,
  labelOfTiteliveMusicType,
  productCategories,
  responseLocationTypeOf,
  showTypes,
  titeliveEventMusicTypes,
  titeliveMusicTypes,
} from '../catalogue/index.js';
import { CategoryDescription, LabelledCode } from './types.js';

function describe(category: Category): CategoryDescription {
  const mandatoryByField = conditionalFieldsOf(category);
  return {
    id: category.id,
    conditionalFields: Object.entries(mandatoryByField).map(([name, mandatory]) => ({
      name,
      mandatory: Boolean(mandatory),
    })),
    locationType: responseLocationTypeOf(category),
  };
}

function labelled<Code extends string>(codes: readonly Code[], labels: Readonly<Record<Code, string>>): LabelledCode[] {
  return codes.map((id) => ({ id, label: labels[id] }));
}

// Reference data is the same for every caller and never changes while the process runs.
const describedEventCategories = eventCategories().map(describe);
const describedProductCategories = productCategories().map(describe);
const musicTypes = labelled(titeliveMusicTypes, labelOfTiteliveMusicType);
const eventMusicTypes = labelled(titeliveEventMusicTypes, labelOfTiteliveEventMusicType);
const legacyMusicTypes = labelled(deprecatedMusicTypes, labelOfDeprecatedMusicType);
const labelledShowTypes = labelled(showTypes, labelOfShowType);

/** Reference data of offers: creatable categories and their fields, music types, show types. */
@Resolver()
export class AttributesResolver {
  @Query(() => [CategoryDescription], { description: 'Event categories an offer can be created in.' })
  eventCategories(): CategoryDescription[] {
    return describedEventCategories;
  }

  @Query(() => [CategoryDescription], { description: 'Product categories an offer can be created in.' })
  productCategories(): CategoryDescription[] {
    return describedProductCategories;
  }

  @Query(() => [LabelledCode], { description: 'Music types of products and events.' })
  musicTypes(): LabelledCode[] {
    return musicTypes;
  }

  @Query(() => [LabelledCode], { description: 'Music types an event may have.' })
  eventMusicTypes(): LabelledCode[] {
    return eventMusicTypes;
  }

  @Query(() => [LabelledCode], { deprecationReason: 'Use musicTypes.', description: 'The former music types.' })
  legacyMusicTypes(): LabelledCode[] {
    return legacyMusicTypes;
  }

  @Query(() => [LabelledCode], { description: 'Show types.' })
  showTypes(): LabelledCode[] {
    return labelledShowTypes;
  }
}
