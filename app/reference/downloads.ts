/** What the reference offers to download beside the document: its collections (server/http/collectionDownloads.ts). */
export const COLLECTION_DOWNLOADS = {
  postmanCollection: '/downloads/postman-collection.json',
  postmanEnvironment: '/downloads/postman-environment.json',
  brunoCollection: '/downloads/bruno-collection.json',
} as const;

/** The docs' section on using them. */
export const COLLECTIONS_DOC = '/docs/integrations/test-data#collections-for-postman-and-bruno';
