import type { OpenApiDocument } from '../portalContext.js';

/**
 * What the docs say about where they are served, so that a reader copies samples that reach the
 * platform that serves them: its address and its provider support's. Both come from the OpenAPI
 * document the server generated from its configuration (PUBLIC_URL, SUPPORT_EMAIL), so the docs,
 * /rest-api and /openapi.json always name the same server.
 */
export interface DocsAddresses {
  /** The API's base URL: the document's first server, the one that serves this portal. */
  baseUrl: string;
  supportEmail: string;
}

/**
 * The tokens a page's Markdown writes where an address goes (`curl "{{BASE_URL}}/..."`,
 * `BASE_URL={{BASE_URL}}`), replaced when the page is rendered. Any other `{{NAME}}` is an error.
 */
const TOKENS: Record<string, keyof DocsAddresses> = { BASE_URL: 'baseUrl', SUPPORT_EMAIL: 'supportEmail' };
const TOKEN = /\{\{\s*([A-Za-z_]+)\s*\}\}/g;

/** The token of the base URL, as the samples' runner finds it in a page. */
export const BASE_URL_TOKEN = '{{BASE_URL}}';

/**
 * The search index is built once, with the portal, before any configuration is known: there each
 * address reads as its token's name (`BASE_URL`), on the server's /search as in the browser's.
 */
export const SEARCH_INDEX_ADDRESSES: DocsAddresses = { baseUrl: 'BASE_URL', supportEmail: 'SUPPORT_EMAIL' };

export function docsAddressesOf(document: Pick<OpenApiDocument, 'servers' | 'info'>): DocsAddresses {
  const baseUrl = document.servers?.[0]?.url;
  const supportEmail = document.info.contact?.email;
  if (typeof baseUrl !== 'string' || typeof supportEmail !== 'string')
    throw new Error('The OpenAPI document names no server or no support email: the docs cannot say where to call');
  return { baseUrl, supportEmail };
}

/** The Markdown with every address token replaced; an unknown token is an error naming the file. */
export function withAddresses(markdown: string, file: string, addresses: DocsAddresses): string {
  return markdown.replace(TOKEN, (_token, name: string) => {
    const key = TOKENS[name];
    if (!key) throw new Error(`${file}: no address {{${name}}} (known: ${Object.keys(TOKENS).join(', ')})`);
    return addresses[key];
  });
}
