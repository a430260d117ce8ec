import { readFileSync } from 'node:fs';
import {
  type GraphQLSchema,
  buildClientSchema,
  getIntrospectionQuery,
  isInputObjectType,
  isObjectType,
  parse,
  validate,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGraph } from '../../graphql/graph.js';
import { createGateway } from '../../graphql/gateway.js';
import { issueApiKey } from '../../graphql/providers/apiKeys.js';
import { Provider } from '../../graphql/providers/Provider.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { graphqlAs } from '../support/builders.js';
import { aProvider } from '../support/fixtures.js';

/** Every type that only staff elements led to: a provider's schema has none of them. */
const STAFF_TYPES = [
  'AuditEntry',
  'AuditEntryFilter',
  'AuditEntryPage',
  'DeliveryFilterInput',
  'JobCount',
  'JobFilter',
  'JobStatus',
  'MessagingSecretPayload',
  'OfferReview',
  'OfferToReview',
  'QueuedJob',
  'VenueLink',
];

/** Every staff field of a type providers read, by type. */
const STAFF_FIELDS: Record<string, string[]> = {
  Query: [
    'auditEntries',
    'bookingMessages',
    'collectiveOffersAwaitingReview',
    'deliveries',
    'jobCounts',
    'jobs',
    'offersAwaitingReview',
    'providers',
  ],
  Mutation: [
    'discardJob',
    'issueApiKey',
    'rejectOffer',
    'retryDelivery',
    'retryJob',
    'reviewOffer',
    'reviewOffers',
    'revokeApiKey',
    'rotateMessagingSecret',
    'setIndividualOfferRights',
    'setProviderActive',
  ],
  Provider: ['apiKeys', 'canManageIndividualOffers', 'offerers', 'venueLinks'],
};

function fieldsOf(schema: GraphQLSchema, typeName: string): string[] {
  const type = schema.getType(typeName);
  return isObjectType(type) || isInputObjectType(type) ? Object.keys(type.getFields()) : [];
}

function ownTypes(schema: GraphQLSchema): string[] {
  return Object.keys(schema.getTypeMap()).filter((name) => !name.startsWith('__'));
}

async function apiSchemaOf(audience: 'staff' | 'provider'): Promise<GraphQLSchema> {
  const gateway = createGateway(buildGraph(), {}, audience);
  try {
    return (await gateway.load()).schema;
  } finally {
    await gateway.stop();
  }
}

/**
 * The GraphQL documents of screens' sources, their fragments inlined: the files hold them as
 * `const NAME = gql\`...\``, a fragment named by `${NAME}` inside another.
 */
function documentsOf(files: string[]): { name: string; source: string }[] {
  const documents = new Map<string, string>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const [, name, body] of text.matchAll(/const ([A-Z_]+) = gql`([^`]*)`/g)) documents.set(name, body);
  }
  const inlined = (body: string): string =>
    body.replace(/\$\{([A-Z_]+)\}/g, (_whole, name: string) => inlined(documents.get(name) ?? `missing ${name}`));
  // A fragment alone is checked inside the operations that spread it.
  return [...documents]
    .filter(([, body]) => /^\s*(query|mutation)\b/.test(body))
    .map(([name, body]) => ({ name, source: inlined(body) }));
}

describe('the graph per audience (decision 033)', () => {
  let staffSchema: GraphQLSchema;
  let providerSchema: GraphQLSchema;

  beforeAll(async () => {
    [staffSchema, providerSchema] = await Promise.all([apiSchemaOf('staff'), apiSchemaOf('provider')]);
  });

  it('leaves out of the provider audience exactly the staff elements, which the staff audience has', () => {
    const missingTypes = ownTypes(staffSchema).filter((name) => !providerSchema.getType(name));
    expect(missingTypes.sort()).toEqual(STAFF_TYPES);
    for (const typeName of ownTypes(providerSchema)) {
      const missingFields = fieldsOf(staffSchema, typeName).filter(
        (field) => !fieldsOf(providerSchema, typeName).includes(field),
      );
      expect(missingFields.sort(), typeName).toEqual(STAFF_FIELDS[typeName] ?? []);
    }
    expect(ownTypes(providerSchema).filter((name) => !staffSchema.getType(name))).toEqual([]);
  });

  it('keeps every back-office document valid for the staff, every console document for providers', () => {
    const backOffice = documentsOf(
      ['ApiKeyTable', 'Jobs', 'Messages', 'ProviderPage', 'Providers', 'Requests', 'ReviewQueue'].map(
        (screen) => `app/backoffice/screens/${screen}.tsx`,
      ),
    );
    // The console shows the back office's request log and key table, as a provider reads them.
    const console = documentsOf([
      'app/console/screens/Keys.tsx',
      'app/console/screens/Messages.tsx',
      'app/console/screens/TestEvents.tsx',
      'app/backoffice/screens/Requests.tsx',
      'app/backoffice/screens/ApiKeyTable.tsx',
    ]);
    expect(backOffice.length).toBeGreaterThan(15);
    expect(console.length).toBeGreaterThan(8);
    for (const { name, source } of backOffice) {
      expect(validate(staffSchema, parse(source)).map(String), name).toEqual([]);
    }
    for (const { name, source } of console) {
      expect(validate(providerSchema, parse(source)).map(String), name).toEqual([]);
    }
  });
});

describe('/graphql per caller', () => {
  let testApp: TestApp;
  let providerKey: string;
  let providerId: number;
  let internalKey: string;
  const em = () => testApp.database.orm.em.fork();

  beforeAll(async () => {
    testApp = await createTestApp();
    const fork = em();
    const created = await aProvider(fork, testApp.clock, { name: 'Audience Ticketing' });
    providerKey = created.apiKey;
    providerId = created.provider.id;
    internalKey = issueApiKey(fork, testApp.clock, { env: 'test', internal: true, label: 'back office' }).key;
    await fork.flush();
  });
  afterAll(async () => {
    await testApp?.close();
  });

  const introspectionAs = async (key: string): Promise<GraphQLSchema> => {
    const response = await graphqlAs(testApp, key, getIntrospectionQuery());
    expect(response.status).toBe(200);
    expect(response.body.errors).toBeUndefined();
    return buildClientSchema(response.body.data);
  };

  it("shows a provider's introspection no staff type, field or operation; the staff's shows them all", async () => {
    const asProvider = await introspectionAs(providerKey);
    const asStaff = await introspectionAs(internalKey);
    for (const typeName of STAFF_TYPES) {
      expect(asProvider.getType(typeName), typeName).toBeUndefined();
      expect(asStaff.getType(typeName), typeName).toBeDefined();
    }
    for (const [typeName, fields] of Object.entries(STAFF_FIELDS)) {
      expect(
        fieldsOf(asProvider, typeName).filter((field) => fields.includes(field)),
        typeName,
      ).toEqual([]);
      expect(fieldsOf(asStaff, typeName), typeName).toEqual(expect.arrayContaining(fields));
    }
    // What providers use is still there.
    expect(fieldsOf(asProvider, 'Provider')).toEqual(expect.arrayContaining(['id', 'name', 'venues', 'isActive']));
    expect(fieldsOf(asProvider, 'Query')).toEqual(expect.arrayContaining(['provider', 'myApiKeys', 'requests']));
  });

  it.each([
    ['a staff field of its own provider', '{ provider { id name apiKeys { id } } }'],
    ['a staff query', '{ jobCounts { type } }'],
    ['a staff type in a fragment', '{ provider { id } } fragment Link on VenueLink { venueId }'],
  ])('refuses %s to a provider key at validation, before anything runs', async (_what, query) => {
    const response = await graphqlAs(testApp, providerKey, query);
    expect(response.status).toBe(400);
    expect(response.body.data).toBeUndefined();
    expect(response.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it("refuses a provider's mutation selecting a staff field whole: it does not run", async () => {
    const response = await graphqlAs(
      testApp,
      providerKey,
      'mutation { updateProvider(input: { notificationUrl: "https://tickets.example.org/notify" }) { id canManageIndividualOffers } }',
    );
    expect(response.status).toBe(400);
    expect(response.body.data).toBeUndefined();
    expect(response.body.errors[0]).toMatchObject({
      message: 'Cannot query field "canManageIndividualOffers" on type "Provider".',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
    expect((await em().findOneOrFail(Provider, providerId)).notificationUrl).toBeNull();
  });

  it('lets the staff read and use the staff fields', async () => {
    const read = await graphqlAs(
      testApp,
      internalKey,
      `{ providers(search: "Audience", page: { limit: 1 }) { id canManageIndividualOffers apiKeys { id } offerers { id } venueLinks { venueId } } }`,
    );
    expect(read.body.errors).toBeUndefined();
    expect(read.body.data.providers).toEqual([
      expect.objectContaining({ id: providerId, canManageIndividualOffers: true, venueLinks: [] }),
    ]);
    expect(read.body.data.providers[0].apiKeys).toHaveLength(1);

    const changed = await graphqlAs(
      testApp,
      internalKey,
      'mutation ($id: Int!) { setIndividualOfferRights(providerId: $id, allowed: false) { id canManageIndividualOffers } }',
      { id: providerId },
    );
    expect(changed.body.errors).toBeUndefined();
    expect(changed.body.data.setIndividualOfferRights).toEqual({ id: providerId, canManageIndividualOffers: false });
    expect((await em().findOneOrFail(Provider, providerId)).canManageIndividualOffers).toBe(false);
  });
});
