/**
 * The docs sidebar, one for every doc page: categories in reading order, each with its pages
 * (by path under /docs) and sub-categories. Labels of pages come from their front matter.
 */
export interface SidebarCategory {
  slug: string;
  label: string;
  description: string;
  items: SidebarItem[];
}

export type SidebarItem = { kind: 'doc'; path: string } | { kind: 'category'; category: SidebarCategory };

const doc = (path: string): SidebarItem => ({ kind: 'doc', path });
const category = (value: SidebarCategory): SidebarItem => ({ kind: 'category', category: value });

export const sidebar: SidebarCategory[] = [
  {
    slug: 'mandatory-steps',
    label: 'Mandatory steps',
    description: 'What to do before your first call: get a provider account, then test accounts.',
    items: [doc('mandatory-steps/request-a-provider-account'), doc('mandatory-steps/create-test-accounts')],
  },
  {
    slug: 'understanding-our-api',
    label: 'Understanding our API',
    description:
      'How the API authenticates you, its errors and retries, the console, the TypeScript SDK, the resources it manages, its messages and its bookings.',
    items: [
      doc('understanding-our-api/authentication-authorization'),
      doc('understanding-our-api/errors-and-retries'),
      doc('understanding-our-api/the-console'),
      doc('understanding-our-api/typescript-sdk'),
      category({
        slug: 'api-resources',
        label: 'API resources',
        description: 'Individual offers, collective offers, and how lists are paged.',
        items: [
          doc('understanding-our-api/resources/individual-offers'),
          doc('understanding-our-api/resources/collective-offers'),
          doc('understanding-our-api/resources/cursor-pagination'),
        ],
      }),
      category({
        slug: 'messaging-system',
        label: 'Messaging system',
        description: 'The messages the platform sends you, and how to check they come from us.',
        items: [
          doc('understanding-our-api/messaging-system/setting-up-messaging'),
          doc('understanding-our-api/messaging-system/authenticating-our-messages'),
        ],
      }),
      category({
        slug: 'booking-management',
        label: 'Booking management',
        description: 'Bookings through your ticketing system, and countermarks.',
        items: [
          doc('understanding-our-api/managing-bookings/connection-with-ticketing-system'),
          doc('understanding-our-api/managing-bookings/countermarks-management'),
        ],
      }),
    ],
  },
  {
    slug: 'tutorials',
    label: 'Tutorials',
    description: 'End-to-end walk-throughs.',
    items: [
      doc('tutorials/create-an-event-linked-to-an-external-ticketing-systems'),
      doc('tutorials/create-a-collective-offer'),
    ],
  },
  {
    slug: 'integration-environment',
    label: 'Integration environment',
    description: 'The sandbox: its test data and the school-platform mocks.',
    items: [doc('integrations/test-data'), doc('integrations/adage_mocks')],
  },
  {
    slug: 'self-hosting',
    label: 'Self-hosting',
    description:
      'For the team that runs the platform, not for integrators: its processes, its configuration, the accounts and keys it issues, its traces, metrics, backups and outages, and the audit trail of staff actions.',
    items: [
      doc('self-hosting/running-the-platform'),
      doc('self-hosting/configuration'),
      doc('self-hosting/providers-venues-and-keys'),
      doc('self-hosting/traces'),
      doc('self-hosting/metrics'),
      doc('self-hosting/backups-and-restore'),
      doc('self-hosting/outages'),
      doc('self-hosting/audit-trail'),
      doc('self-hosting/staff-sign-in'),
    ],
  },
];

/** Every category, sub-categories included, in sidebar order. */
export function allCategories(categories: SidebarCategory[] = sidebar): SidebarCategory[] {
  return categories.flatMap((entry) => [
    entry,
    ...allCategories(entry.items.flatMap((item) => (item.kind === 'category' ? [item.category] : []))),
  ]);
}

/** Every doc path, in sidebar order. */
export function allDocPaths(categories: SidebarCategory[] = sidebar): string[] {
  return categories.flatMap((entry) =>
    entry.items.flatMap((item) => (item.kind === 'doc' ? [item.path] : allDocPaths([item.category]))),
  );
}
