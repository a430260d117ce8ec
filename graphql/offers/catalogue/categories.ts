// The offer categories of the reference contract (its `categories.json`), transcribed once into code
// by a one-off script; edit by hand from now on. Labels are the reference's short French labels.
import type { CategoryId, LocationType } from './enums.js';

/** The category-related fields that occur, besides `category` itself (`categoryRelatedFields`). */
export const categoryFieldNames = [
  'author', 'ean', 'musicType', 'performer', 'showType', 'speaker', 'stageDirector', 'visa',
] as const;
export type CategoryFieldName = (typeof categoryFieldNames)[number];

/**
 * How a category-related field is validated:
 * - `string`: free text;
 * - `ean`: an EAN, exactly 13 characters (the product specification's rule; the reference's category
 *   schemas type it as a plain string, its other EAN inputs carry the 13-character bound);
 * - `musicType`: a `MusicType`, anyOf(TiteliveMusicTypeEnum | MusicTypeEnum__deprecated_);
 * - `showType`: a `ShowType` (ShowTypeEnum).
 */
export type CategoryFieldType = 'string' | 'ean' | 'musicType' | 'showType';

export const categoryFieldTypes: Readonly<Record<CategoryFieldName, CategoryFieldType>> = {
  author: 'string',
  ean: 'ean',
  musicType: 'musicType',
  performer: 'string',
  showType: 'showType',
  speaker: 'string',
  stageDirector: 'string',
  visa: 'string',
};

/**
 * Where an offer of the category may take place: `OFFLINE` a physical or address location,
 * `ONLINE` a digital location, `ONLINE_OR_OFFLINE` either.
 */
export type CategoryLocationType = 'OFFLINE' | 'ONLINE' | 'ONLINE_OR_OFFLINE';

export interface Category {
  id: CategoryId;
  kind: 'event' | 'product';
  /** Short French label of the reference. */
  label: string;
  /** Whether providers may create offers of this category through the API. */
  creatable: boolean;
  /** The category-related fields an offer of this category may carry, in name order. */
  fields: readonly CategoryFieldName[];
  /** The fields among `fields` that creation requires (edition requires none). */
  requiredOnCreate: readonly CategoryFieldName[];
  locationType: CategoryLocationType;
  /** Whether duo bookings are allowed: `enableDoubleBookings: true` is refused on other categories. */
  canBeDuo: boolean;
  /** Whether tickets can be withdrawn (then the offer needs a `bookingContact`). */
  canBeWithdrawable: boolean;
}

export const categories: Readonly<Record<CategoryId, Category>> = {
  ACTIVATION_EVENT: {
    id: 'ACTIVATION_EVENT', kind: 'event', label: "Catégorie technique d'évènement d'activation",
    creatable: false, locationType: 'ONLINE_OR_OFFLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: [], requiredOnCreate: [],
  },
  ATELIER_PRATIQUE_ART: {
    id: 'ATELIER_PRATIQUE_ART', kind: 'event', label: 'Atelier, stage de pratique artistique',
    creatable: true, locationType: 'OFFLINE', canBeDuo: true, canBeWithdrawable: false,
    fields: ['speaker'], requiredOnCreate: [],
  },
  CINE_PLEIN_AIR: {
    id: 'CINE_PLEIN_AIR', kind: 'event', label: 'Cinéma plein air',
    creatable: true, locationType: 'OFFLINE', canBeDuo: true, canBeWithdrawable: false,
    fields: ['author', 'stageDirector', 'visa'], requiredOnCreate: [],
  },
  CONCERT: {
    id: 'CONCERT', kind: 'event', label: 'Concert',
    creatable: true, locationType: 'OFFLINE', canBeDuo: true, canBeWithdrawable: true,
    fields: ['author', 'musicType', 'performer'], requiredOnCreate: ['musicType'],
  },
  CONCOURS: {
    id: 'CONCOURS', kind: 'event', label: 'Concours - jeux',
    creatable: true, locationType: 'OFFLINE', canBeDuo: true, canBeWithdrawable: false,
    fields: [], requiredOnCreate: [],
  },
  CONFERENCE: {
    id: 'CONFERENCE', kind: 'event', label: 'Conférence',
    creatable: true, locationType: 'OFFLINE', canBeDuo: true, canBeWithdrawable: false,
    fields: ['speaker'], requiredOnCreate: [],
  },
  DECOUVERTE_METIERS: {
    id: 'DECOUVERTE_METIERS', kind: 'event', label: 'Découverte des métiers',
    creatable: false, locationType: 'OFFLINE', canBeDuo: true, canBeWithdrawable: false,
    fields: ['speaker'], requiredOnCreate: [],
  },
  EVENEMENT_CINE: {
    id: 'EVENEMENT_CINE', kind: 'event', label: 'Évènement cinématographique',
    creatable: true, locationType: 'OFFLINE', canBeDuo: true, canBeWithdrawable: false,
    fields: ['author', 'stageDirector', 'visa'], requiredOnCreate: [],
  },
  EVENEMENT_JEU: {
    id: 'EVENEMENT_JEU', kind: 'event', label: 'Évènements - jeux',
    creatable: true, locationType: 'OFFLINE', canBeDuo: true, canBeWithdrawable: false,
    fields: [], requiredOnCreate: [],
  },
  EVENEMENT_MUSIQUE: {
    id: 'EVENEMENT_MUSIQUE', kind: 'event', label: "Autre type d'évènement musical",
    creatable: true, locationType: 'OFFLINE', canBeDuo: true, canBeWithdrawable: true,
    fields: ['author', 'musicType', 'performer'], requiredOnCreate: ['musicType'],
  },
  EVENEMENT_PATRIMOINE: {
    id: 'EVENEMENT_PATRIMOINE', kind: 'event', label: 'Évènement et atelier patrimoine',
    creatable: true, locationType: 'OFFLINE', canBeDuo: true, canBeWithdrawable: false,
    fields: [], requiredOnCreate: [],
  },
  FESTIVAL_ART_VISUEL: {
    id: 'FESTIVAL_ART_VISUEL', kind: 'event', label: "Festival d'arts visuels / arts numériques",
    creatable: true, locationType: 'OFFLINE', canBeDuo: true, canBeWithdrawable: true,
    fields: ['author', 'performer'], requiredOnCreate: [],
  },
  FESTIVAL_CINE: {
    id: 'FESTIVAL_CINE', kind: 'event', label: 'Festival de cinéma',
    creatable: true, locationType: 'OFFLINE', canBeDuo: true, canBeWithdrawable: false,
    fields: ['author', 'stageDirector', 'visa'], requiredOnCreate: [],
  },
  FESTIVAL_LIVRE: {
    id: 'FESTIVAL_LIVRE', kind: 'event', label: 'Festival et salon du livre',
    creatable: true, locationType: 'OFFLINE', canBeDuo: true, canBeWithdrawable: false,
    fields: [], requiredOnCreate: [],
  },
  FESTIVAL_MUSIQUE: {
    id: 'FESTIVAL_MUSIQUE', kind: 'event', label: 'Festival de musique',
    creatable: true, locationType: 'OFFLINE', canBeDuo: true, canBeWithdrawable: true,
    fields: ['author', 'musicType', 'performer'], requiredOnCreate: ['musicType'],
  },
  FESTIVAL_SPECTACLE: {
    id: 'FESTIVAL_SPECTACLE', kind: 'event', label: 'Festival de spectacle vivant',
    creatable: true, locationType: 'OFFLINE', canBeDuo: true, canBeWithdrawable: true,
    fields: ['author', 'performer', 'showType', 'stageDirector'], requiredOnCreate: ['showType'],
  },
  LIVESTREAM_EVENEMENT: {
    id: 'LIVESTREAM_EVENEMENT', kind: 'event', label: "Livestream d'évènement",
    creatable: true, locationType: 'ONLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: ['author', 'performer', 'showType', 'stageDirector'], requiredOnCreate: ['showType'],
  },
  LIVESTREAM_MUSIQUE: {
    id: 'LIVESTREAM_MUSIQUE', kind: 'event', label: 'Livestream musical',
    creatable: true, locationType: 'ONLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: ['author', 'musicType', 'performer'], requiredOnCreate: ['musicType'],
  },
  LIVESTREAM_PRATIQUE_ARTISTIQUE: {
    id: 'LIVESTREAM_PRATIQUE_ARTISTIQUE', kind: 'event', label: 'Pratique artistique - livestream',
    creatable: true, locationType: 'ONLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: [], requiredOnCreate: [],
  },
  RENCONTRE: {
    id: 'RENCONTRE', kind: 'event', label: 'Rencontre',
    creatable: true, locationType: 'OFFLINE', canBeDuo: true, canBeWithdrawable: false,
    fields: ['speaker'], requiredOnCreate: [],
  },
  RENCONTRE_EN_LIGNE: {
    id: 'RENCONTRE_EN_LIGNE', kind: 'event', label: 'Rencontre en ligne',
    creatable: true, locationType: 'ONLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: ['speaker'], requiredOnCreate: [],
  },
  RENCONTRE_JEU: {
    id: 'RENCONTRE_JEU', kind: 'event', label: 'Rencontres - jeux',
    creatable: true, locationType: 'OFFLINE', canBeDuo: true, canBeWithdrawable: false,
    fields: [], requiredOnCreate: [],
  },
  SALON: {
    id: 'SALON', kind: 'event', label: 'Salon, Convention',
    creatable: true, locationType: 'OFFLINE', canBeDuo: true, canBeWithdrawable: false,
    fields: ['speaker'], requiredOnCreate: [],
  },
  SEANCE_CINE: {
    id: 'SEANCE_CINE', kind: 'event', label: 'Séance de cinéma',
    creatable: true, locationType: 'OFFLINE', canBeDuo: true, canBeWithdrawable: false,
    fields: ['author', 'stageDirector', 'visa'], requiredOnCreate: [],
  },
  SEANCE_ESSAI_PRATIQUE_ART: {
    id: 'SEANCE_ESSAI_PRATIQUE_ART', kind: 'event', label: "Séance d'essai",
    creatable: true, locationType: 'OFFLINE', canBeDuo: true, canBeWithdrawable: false,
    fields: ['speaker'], requiredOnCreate: [],
  },
  SPECTACLE_REPRESENTATION: {
    id: 'SPECTACLE_REPRESENTATION', kind: 'event', label: 'Spectacle, représentation',
    creatable: true, locationType: 'OFFLINE', canBeDuo: true, canBeWithdrawable: true,
    fields: ['author', 'performer', 'showType', 'stageDirector'], requiredOnCreate: ['showType'],
  },
  VISITE: {
    id: 'VISITE', kind: 'event', label: 'Visite',
    creatable: true, locationType: 'OFFLINE', canBeDuo: true, canBeWithdrawable: false,
    fields: [], requiredOnCreate: [],
  },
  VISITE_GUIDEE: {
    id: 'VISITE_GUIDEE', kind: 'event', label: 'Visite guidée',
    creatable: true, locationType: 'OFFLINE', canBeDuo: true, canBeWithdrawable: false,
    fields: [], requiredOnCreate: [],
  },
  ABO_BIBLIOTHEQUE: {
    id: 'ABO_BIBLIOTHEQUE', kind: 'product', label: 'Abonnement (bibliothèques, médiathèques...)',
    creatable: true, locationType: 'OFFLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: [], requiredOnCreate: [],
  },
  ABO_CONCERT: {
    id: 'ABO_CONCERT', kind: 'product', label: 'Abonnement concert',
    creatable: true, locationType: 'OFFLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: ['musicType'], requiredOnCreate: ['musicType'],
  },
  ABO_JEU_VIDEO: {
    id: 'ABO_JEU_VIDEO', kind: 'product', label: 'Abonnement jeux vidéos',
    creatable: false, locationType: 'ONLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: [], requiredOnCreate: [],
  },
  ABO_LIVRE_NUMERIQUE: {
    id: 'ABO_LIVRE_NUMERIQUE', kind: 'product', label: 'Abonnement livres numériques',
    creatable: true, locationType: 'ONLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: [], requiredOnCreate: [],
  },
  ABO_LUDOTHEQUE: {
    id: 'ABO_LUDOTHEQUE', kind: 'product', label: 'Abonnement ludothèque',
    creatable: false, locationType: 'OFFLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: [], requiredOnCreate: [],
  },
  ABO_MEDIATHEQUE: {
    id: 'ABO_MEDIATHEQUE', kind: 'product', label: 'Abonnement médiathèque',
    creatable: true, locationType: 'OFFLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: [], requiredOnCreate: [],
  },
  ABO_PLATEFORME_MUSIQUE: {
    id: 'ABO_PLATEFORME_MUSIQUE', kind: 'product', label: 'Abonnement plateforme musicale',
    creatable: true, locationType: 'ONLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: [], requiredOnCreate: [],
  },
  ABO_PLATEFORME_VIDEO: {
    id: 'ABO_PLATEFORME_VIDEO', kind: 'product', label: 'Abonnement plateforme streaming',
    creatable: true, locationType: 'ONLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: [], requiredOnCreate: [],
  },
  ABO_PRATIQUE_ART: {
    id: 'ABO_PRATIQUE_ART', kind: 'product', label: 'Abonnement pratique artistique',
    creatable: true, locationType: 'OFFLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: [], requiredOnCreate: [],
  },
  ABO_PRESSE_EN_LIGNE: {
    id: 'ABO_PRESSE_EN_LIGNE', kind: 'product', label: 'Abonnement presse en ligne',
    creatable: true, locationType: 'ONLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: [], requiredOnCreate: [],
  },
  ABO_SPECTACLE: {
    id: 'ABO_SPECTACLE', kind: 'product', label: 'Abonnement spectacle',
    creatable: true, locationType: 'OFFLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: ['showType'], requiredOnCreate: ['showType'],
  },
  ACHAT_INSTRUMENT: {
    id: 'ACHAT_INSTRUMENT', kind: 'product', label: 'Achat instrument',
    creatable: true, locationType: 'OFFLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: ['ean'], requiredOnCreate: ['ean'],
  },
  ACTIVATION_THING: {
    id: 'ACTIVATION_THING', kind: 'product', label: "Catégorie technique de thing d'activation",
    creatable: false, locationType: 'ONLINE_OR_OFFLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: [], requiredOnCreate: [],
  },
  APP_CULTURELLE: {
    id: 'APP_CULTURELLE', kind: 'product', label: 'Application culturelle',
    creatable: true, locationType: 'ONLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: [], requiredOnCreate: [],
  },
  AUTRE_SUPPORT_NUMERIQUE: {
    id: 'AUTRE_SUPPORT_NUMERIQUE', kind: 'product', label: 'Autre support numérique',
    creatable: true, locationType: 'ONLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: [], requiredOnCreate: [],
  },
  BON_ACHAT_INSTRUMENT: {
    id: 'BON_ACHAT_INSTRUMENT', kind: 'product', label: "Bon d'achat instrument",
    creatable: false, locationType: 'OFFLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: [], requiredOnCreate: [],
  },
  CAPTATION_MUSIQUE: {
    id: 'CAPTATION_MUSIQUE', kind: 'product', label: 'Captation musicale',
    creatable: false, locationType: 'OFFLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: ['author', 'musicType', 'performer'], requiredOnCreate: [],
  },
  CARTE_CINE_ILLIMITE: {
    id: 'CARTE_CINE_ILLIMITE', kind: 'product', label: 'Carte cinéma illimité',
    creatable: false, locationType: 'OFFLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: [], requiredOnCreate: [],
  },
  CARTE_CINE_MULTISEANCES: {
    id: 'CARTE_CINE_MULTISEANCES', kind: 'product', label: 'Carte cinéma multi-séances',
    creatable: false, locationType: 'OFFLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: [], requiredOnCreate: [],
  },
  CARTE_JEUNES: {
    id: 'CARTE_JEUNES', kind: 'product', label: 'Carte jeunes',
    creatable: true, locationType: 'OFFLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: [], requiredOnCreate: [],
  },
  CARTE_MUSEE: {
    id: 'CARTE_MUSEE', kind: 'product', label: 'Abonnement musée, carte ou pass',
    creatable: true, locationType: 'OFFLINE', canBeDuo: true, canBeWithdrawable: false,
    fields: [], requiredOnCreate: [],
  },
  CINE_VENTE_DISTANCE: {
    id: 'CINE_VENTE_DISTANCE', kind: 'product', label: 'Cinéma vente à distance',
    creatable: false, locationType: 'ONLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: ['author', 'stageDirector', 'visa'], requiredOnCreate: [],
  },
  ESCAPE_GAME: {
    id: 'ESCAPE_GAME', kind: 'product', label: 'Escape game',
    creatable: false, locationType: 'OFFLINE', canBeDuo: true, canBeWithdrawable: false,
    fields: [], requiredOnCreate: [],
  },
  JEU_EN_LIGNE: {
    id: 'JEU_EN_LIGNE', kind: 'product', label: 'Jeux en ligne',
    creatable: false, locationType: 'ONLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: ['ean'], requiredOnCreate: [],
  },
  JEU_SUPPORT_PHYSIQUE: {
    id: 'JEU_SUPPORT_PHYSIQUE', kind: 'product', label: 'Catégorie technique Jeu support physique',
    creatable: false, locationType: 'ONLINE_OR_OFFLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: [], requiredOnCreate: [],
  },
  LIVRE_AUDIO_PHYSIQUE: {
    id: 'LIVRE_AUDIO_PHYSIQUE', kind: 'product', label: 'Livre audio sur support physique',
    creatable: true, locationType: 'OFFLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: ['author', 'ean'], requiredOnCreate: ['ean'],
  },
  LIVRE_NUMERIQUE: {
    id: 'LIVRE_NUMERIQUE', kind: 'product', label: 'Livre numérique, e-book',
    creatable: true, locationType: 'ONLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: ['author', 'ean'], requiredOnCreate: [],
  },
  LIVRE_PAPIER: {
    id: 'LIVRE_PAPIER', kind: 'product', label: 'Livre papier',
    creatable: false, locationType: 'OFFLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: ['author', 'ean'], requiredOnCreate: [],
  },
  LOCATION_INSTRUMENT: {
    id: 'LOCATION_INSTRUMENT', kind: 'product', label: 'Location instrument',
    creatable: true, locationType: 'OFFLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: ['ean'], requiredOnCreate: ['ean'],
  },
  MATERIEL_ART_CREATIF: {
    id: 'MATERIEL_ART_CREATIF', kind: 'product', label: 'Matériel arts créatifs',
    creatable: false, locationType: 'OFFLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: ['ean'], requiredOnCreate: [],
  },
  MUSEE_VENTE_DISTANCE: {
    id: 'MUSEE_VENTE_DISTANCE', kind: 'product', label: 'Musée vente à distance',
    creatable: false, locationType: 'ONLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: [], requiredOnCreate: [],
  },
  OEUVRE_ART: {
    id: 'OEUVRE_ART', kind: 'product', label: "Catégorie technique d'oeuvre d'art",
    creatable: false, locationType: 'ONLINE_OR_OFFLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: [], requiredOnCreate: [],
  },
  PARTITION: {
    id: 'PARTITION', kind: 'product', label: 'Partition',
    creatable: true, locationType: 'OFFLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: ['ean'], requiredOnCreate: ['ean'],
  },
  PLATEFORME_PRATIQUE_ARTISTIQUE: {
    id: 'PLATEFORME_PRATIQUE_ARTISTIQUE', kind: 'product', label: 'Pratique artistique - plateforme en ligne',
    creatable: true, locationType: 'ONLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: [], requiredOnCreate: [],
  },
  PODCAST: {
    id: 'PODCAST', kind: 'product', label: 'Podcast',
    creatable: true, locationType: 'ONLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: [], requiredOnCreate: [],
  },
  PRATIQUE_ART_VENTE_DISTANCE: {
    id: 'PRATIQUE_ART_VENTE_DISTANCE', kind: 'product', label: 'Pratique artistique - vente à distance',
    creatable: true, locationType: 'ONLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: ['speaker'], requiredOnCreate: [],
  },
  SPECTACLE_ENREGISTRE: {
    id: 'SPECTACLE_ENREGISTRE', kind: 'product', label: 'Spectacle enregistré',
    creatable: true, locationType: 'ONLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: ['author', 'performer', 'showType', 'stageDirector'], requiredOnCreate: ['showType'],
  },
  SPECTACLE_VENTE_DISTANCE: {
    id: 'SPECTACLE_VENTE_DISTANCE', kind: 'product', label: 'Spectacle vivant - vente à distance',
    creatable: false, locationType: 'ONLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: ['author', 'performer', 'showType', 'stageDirector'], requiredOnCreate: [],
  },
  SUPPORT_PHYSIQUE_FILM: {
    id: 'SUPPORT_PHYSIQUE_FILM', kind: 'product', label: 'Support physique (DVD, Blu-ray...)',
    creatable: true, locationType: 'OFFLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: ['ean'], requiredOnCreate: ['ean'],
  },
  SUPPORT_PHYSIQUE_MUSIQUE_CD: {
    id: 'SUPPORT_PHYSIQUE_MUSIQUE_CD', kind: 'product', label: 'CD',
    creatable: false, locationType: 'OFFLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: ['author', 'ean', 'musicType', 'performer'], requiredOnCreate: [],
  },
  SUPPORT_PHYSIQUE_MUSIQUE_VINYLE: {
    id: 'SUPPORT_PHYSIQUE_MUSIQUE_VINYLE', kind: 'product', label: 'Vinyles et autres supports',
    creatable: false, locationType: 'OFFLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: ['author', 'ean', 'musicType', 'performer'], requiredOnCreate: [],
  },
  TELECHARGEMENT_LIVRE_AUDIO: {
    id: 'TELECHARGEMENT_LIVRE_AUDIO', kind: 'product', label: 'Livre audio à télécharger',
    creatable: true, locationType: 'ONLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: ['author'], requiredOnCreate: [],
  },
  TELECHARGEMENT_MUSIQUE: {
    id: 'TELECHARGEMENT_MUSIQUE', kind: 'product', label: 'Téléchargement de musique',
    creatable: true, locationType: 'ONLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: ['author', 'ean', 'musicType', 'performer'], requiredOnCreate: ['musicType'],
  },
  VISITE_VIRTUELLE: {
    id: 'VISITE_VIRTUELLE', kind: 'product', label: 'Visite virtuelle',
    creatable: true, locationType: 'ONLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: [], requiredOnCreate: [],
  },
  VOD: {
    id: 'VOD', kind: 'product', label: 'Vidéo à la demande',
    creatable: true, locationType: 'ONLINE', canBeDuo: false, canBeWithdrawable: false,
    fields: [], requiredOnCreate: [],
  },
};

const byId = (a: Category, b: Category): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

const creatableEventCategories: readonly Category[] = Object.freeze(
  Object.values(categories)
    .filter((category) => category.kind === 'event' && category.creatable)
    .sort(byId),
);

const creatableProductCategories: readonly Category[] = Object.freeze(
  Object.values(categories)
    .filter((category) => category.kind === 'product' && category.creatable)
    .sort(byId),
);

/** The event categories providers may create offers in (`GET /events/categories`), in id order. */
export function eventCategories(): readonly Category[] {
  return creatableEventCategories;
}

/** The product categories providers may create offers in (`GET /products/categories`), in id order. */
export function productCategories(): readonly Category[] {
  return creatableProductCategories;
}

export function isCategoryId(id: string): id is CategoryId {
  return Object.prototype.hasOwnProperty.call(categories, id);
}

/** The category with this id, or undefined for an unknown id (input from a request). */
export function categoryById(id: string): Category | undefined {
  return isCategoryId(id) ? categories[id] : undefined;
}

/** Whether the id names an event category (creatable or not); false for products and unknown ids. */
export function isEventCategory(id: string): boolean {
  return categoryById(id)?.kind === 'event';
}

/**
 * The `conditionalFields` of a category response: each field the category carries, mapped to
 * whether creation requires it (e.g. CONCERT: `{author: false, musicType: true, performer: false}`).
 * Fields the category does not carry are absent.
 */
export function conditionalFieldsOf(
  category: Category | CategoryId,
): Partial<Record<CategoryFieldName, boolean>> {
  const { fields, requiredOnCreate } = typeof category === 'string' ? categories[category] : category;
  return Object.fromEntries(fields.map((field) => [field, requiredOnCreate.includes(field)]));
}

/**
 * The `locationType` of a `ProductCategoryResponse`: PHYSICAL for an offline-only category, DIGITAL
 * for an online-only one, null when the category allows both.
 */
export function responseLocationTypeOf(category: Category | CategoryId): LocationType | null {
  const { locationType } = typeof category === 'string' ? categories[category] : category;
  return locationType === 'OFFLINE' ? 'PHYSICAL' : locationType === 'ONLINE' ? 'DIGITAL' : null;
}
