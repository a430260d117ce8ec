// The demo sandbox that `npm start` creates on an empty database: its provider, offerer and
// venues. Data only (no entities), so that the portal's test-data page lists these very values.

export interface DemoAddress {
  banId: string;
  street: string;
  city: string;
  postalCode: string;
  inseeCode: string;
  departmentCode: string;
  latitude: number;
  longitude: number;
}

export interface DemoVenue {
  legalName: string;
  publicName: string;
  siret: string | null;
  activityDomain: string;
  /** null: a digital venue, which has no address. */
  address: DemoAddress | null;
  /** null: not said (a digital venue). */
  accessibility: { audio: boolean; mental: boolean; motor: boolean; visual: boolean } | null;
}

const accessibleButVisual = { audio: true, mental: true, motor: true, visual: false };

export const demoProvider = {
  name: 'Demo Ticketing',
  bookingUrl: 'https://ticketing.example.com/booking',
  cancelUrl: 'https://ticketing.example.com/cancel',
  notificationUrl: 'https://ticketing.example.com/notify',
} as const;

export const demoOfferer = { name: 'Demo Cultural Association', siren: '123456782', allowedOnAdage: true } as const;

export const demoVenues: readonly DemoVenue[] = [
  {
    legalName: 'Demo Theatre',
    publicName: 'Théâtre de la Démo',
    siret: '12345678200010',
    activityDomain: 'PERFORMING_ARTS',
    address: {
      banId: '75104_4589_00012',
      street: '12 Rue de Rivoli',
      city: 'Paris',
      postalCode: '75004',
      inseeCode: '75104',
      departmentCode: '75',
      latitude: 48.85553,
      longitude: 2.35916,
    },
    accessibility: accessibleButVisual,
  },
  {
    legalName: 'Demo Bookshop',
    publicName: 'Librairie de la Démo',
    siret: '12345678200028',
    activityDomain: 'BOOKSTORE',
    address: {
      banId: '69381_3215_00004',
      street: '4 Place Bellecour',
      city: 'Lyon',
      postalCode: '69002',
      inseeCode: '69382',
      departmentCode: '69',
      latitude: 45.75781,
      longitude: 4.83201,
    },
    accessibility: accessibleButVisual,
  },
  {
    legalName: 'Demo Online',
    publicName: 'Offre numérique',
    siret: null,
    activityDomain: 'DIGITAL',
    address: null,
    accessibility: null,
  },
];

export const demoKeyLabel = 'Demo key';
