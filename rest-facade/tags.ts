/** Tag groups of the reference, in the order the API reference shows them. */
export const tags = [
  { name: 'Providers', description: 'Your provider account and the ticketing URLs of your venues.' },
  { name: 'Venues', description: 'Venues your API key may act on.' },
  { name: 'Addresses', description: 'Addresses where offers take place.' },
  { name: 'Product Offer Bulk Operations', description: 'Upsert product offers by EAN, asynchronously.' },
  { name: 'Product Offers', description: 'Offers of goods: books, records, subscriptions and more.' },
  { name: 'Event Offers', description: 'Offers of events: shows, concerts, screenings and more.' },
  { name: 'Event Offer Price Categories', description: 'The price categories of an event.' },
  { name: 'Event Offer Stocks', description: 'The dates of an event, each with a price category and a quantity.' },
  { name: 'Images', description: 'Offer images.' },
  { name: 'Offer Attributes', description: 'Reference data for offers: categories, music types and show types.' },
  { name: 'Bookings', description: 'Bookings of your offers and their countermarks.' },
  { name: 'Collective Offers', description: 'Offers to school groups.' },
  { name: 'Collective Bookings', description: 'Bookings of your collective offers by schools.' },
  { name: 'Collective Offer Attributes', description: 'Reference data for collective offers.' },
  {
    name: 'Adage Mock (Collective Bookings)',
    description: 'Simulate what the school platform does to collective bookings. Not available in production.',
  },
] as const;

/**
 * The reference's navigation: tags in groups, in reading order (`x-tagGroups`, the extension the
 * usual reference tools read).
 */
export const tagGroups: { name: string; tags: (typeof tags)[number]['name'][] }[] = [
  { name: 'Providers and venues', tags: ['Providers', 'Venues', 'Addresses'] },
  {
    name: 'Individual offers',
    tags: [
      'Offer Attributes',
      'Event Offers',
      'Event Offer Price Categories',
      'Event Offer Stocks',
      'Product Offers',
      'Product Offer Bulk Operations',
      'Images',
    ],
  },
  { name: 'Bookings', tags: ['Bookings'] },
  {
    name: 'Collective offers',
    tags: [
      'Collective Offers',
      'Collective Offer Attributes',
      'Collective Bookings',
      'Adage Mock (Collective Bookings)',
    ],
  },
];
