// Venue activities: owned by the providers subgraph, where venues live.

/** Activity of a venue (reference `VenueTypeEnum`). */
export const venueTypes = [
  'ARTISTIC_COURSE',
  'BOOKSTORE',
  'CONCERT_HALL',
  'CREATIVE_ARTS_STORE',
  'CULTURAL_CENTRE',
  'DIGITAL',
  'DISTRIBUTION_STORE',
  'FESTIVAL',
  'GAMES',
  'LIBRARY',
  'MOVIE',
  'MUSEUM',
  'MUSICAL_INSTRUMENT_STORE',
  'OTHER',
  'PATRIMONY_TOURISM',
  'PERFORMING_ARTS',
  'RECORD_STORE',
  'SCIENTIFIC_CULTURE',
  'TRAVELING_CINEMA',
  'VISUAL_ARTS',
] as const;
export type VenueType = (typeof venueTypes)[number];

/** Labels of the venue activities (`VenueResponse.activityDomain`). */
export const labelOfVenueType: Readonly<Record<VenueType, string>> = {
  ARTISTIC_COURSE: 'Cours et pratique artistiques',
  BOOKSTORE: 'Librairie',
  CONCERT_HALL: 'Musique - Salle de concerts',
  CREATIVE_ARTS_STORE: 'Magasin arts créatifs',
  CULTURAL_CENTRE: 'Centre culturel',
  DIGITAL: 'Offre numérique',
  DISTRIBUTION_STORE: 'Magasin de distribution de produits culturels',
  FESTIVAL: 'Festival',
  GAMES: 'Jeux / Jeux vidéo',
  LIBRARY: 'Bibliothèque ou médiathèque',
  MOVIE: 'Cinéma - Salle de projections',
  MUSEUM: 'Musée',
  MUSICAL_INSTRUMENT_STORE: "Musique - Magasin d'instruments",
  OTHER: 'Autre',
  PATRIMONY_TOURISM: 'Patrimoine et tourisme',
  PERFORMING_ARTS: 'Spectacle vivant',
  RECORD_STORE: 'Musique - Disquaire',
  SCIENTIFIC_CULTURE: 'Culture scientifique',
  TRAVELING_CINEMA: 'Cinéma itinérant',
  VISUAL_ARTS: 'Arts visuels, arts plastiques et galeries',
};
