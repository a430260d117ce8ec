/**
 * The collections the reference page offers: the committed files are what the current document
 * makes (npm run collections), and the server hands them out with a sandbox environment naming
 * its own address.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brunoCollection, postmanCollection } from '../../scripts/contract/collections.js';
import { contractJson, currentDocument, readContractJson } from '../../scripts/contract/document.js';
import { COLLECTION_DOWNLOADS, pathParameterNames } from '../../server/http/collectionDownloads.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { openApiDocument } from '../support/contract.js';

const PUBLIC_URL = 'https://sandbox.example.net';

describe('the committed collections', () => {
  const document = currentDocument();

  it('are what the current document makes: run npm run collections after changing the API', async () => {
    expect(contractJson(readContractJson('postmanCollection'))).toBe(contractJson(await postmanCollection(document)));
    expect(contractJson(readContractJson('brunoCollection'))).toBe(contractJson(brunoCollection(document)));
  }, 60_000);
});

describe('the collection downloads', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp({ env: { PUBLIC_URL } });
  });
  afterAll(() => testApp.close());

  const download = async (path: string, fileName: string) => {
    const response = await request(testApp.app).get(path);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['content-disposition']).toBe(`attachment; filename="${fileName}"`);
    return JSON.parse(response.text) as Record<string, any>;
  };

  it('serve the Postman collection as committed', async () => {
    const collection = await download(COLLECTION_DOWNLOADS.postmanCollection, 'postman-collection.json');
    expect(collection).toEqual(readContractJson('postmanCollection'));
    expect(collection.info.schema).toBe('https://schema.getpostman.com/json/collection/v2.1.0/collection.json');
  });

  it("serve the sandbox environment with this server's address, the key to fill and every path parameter", async () => {
    const environment = await download(COLLECTION_DOWNLOADS.postmanEnvironment, 'postman-environment.json');
    expect(environment._postman_variable_scope).toBe('environment');
    const values = environment.values as { key: string; value: string; type: string }[];
    expect(values.slice(0, 2)).toEqual([
      { key: 'baseUrl', value: PUBLIC_URL, type: 'default', enabled: true },
      { key: 'apiKey', value: '', type: 'secret', enabled: true },
    ]);
    expect(values.slice(2).map((value) => value.key)).toEqual(pathParameterNames(openApiDocument));
    expect(pathParameterNames(openApiDocument)).toEqual(expect.arrayContaining(['event_id', 'venue_id', 'token']));
  });

  it('serve the Bruno collection with the same environment', async () => {
    const collection = await download(COLLECTION_DOWNLOADS.brunoCollection, 'bruno-collection.json');
    const committed = readContractJson<Record<string, unknown>>('brunoCollection');
    expect({ ...collection, environments: null }).toEqual({ ...committed, environments: null });
    const [environment] = collection.environments as { name: string; variables: { name: string; value: string }[] }[];
    expect(environment.variables[0]).toMatchObject({ name: 'baseUrl', value: PUBLIC_URL });
    expect(environment.variables[1]).toMatchObject({ name: 'apiKey', value: '', secret: true });
    expect(collection.environments).toHaveLength(1);
  });

  it('send every request of both with the key and the path parameters as variables', () => {
    const postman = JSON.stringify(readContractJson('postmanCollection'));
    const bruno = JSON.stringify(readContractJson('brunoCollection'));
    expect(postman).not.toContain('bearerToken');
    expect(postman).toContain('"value":"{{apiKey}}"');
    expect(bruno).toContain('"token":"{{apiKey}}"');
    for (const name of pathParameterNames(openApiDocument)) {
      expect(postman, name).toContain(`"value":"{{${name}}}"`);
      expect(bruno, name).toContain(`"value":"{{${name}}}"`);
    }
  });
});
