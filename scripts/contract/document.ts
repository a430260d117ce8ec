import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { routes } from '../../rest-facade/index.js';
import { generateOpenApiDocument } from '../../rest-facade/openapi.js';
import { loadConfig } from '../../server/config.js';
import { COLLECTION_FILES } from '../../server/http/collectionDownloads.js';
import { findProjectRoot } from '../../server/portal.js';

export type ContractDocument = ReturnType<typeof generateOpenApiDocument>;

/** Where the contract's files live, from the project's root. */
export const contractFiles = {
  released: 'contract/openapi.released.json',
  releaseRecord: 'contract/released.json',
  postmanCollection: COLLECTION_FILES.postman,
  brunoCollection: COLLECTION_FILES.bruno,
  changeLog: 'docs/pages/change-logs.md',
} as const;

export type ContractFile = keyof typeof contractFiles;

/** When the released document was released, beside it (the document itself stays as generated). */
export interface ReleaseRecord {
  /** YYYY-MM-DD */
  releasedOn: string;
  apiVersion: string;
}

export function contractPath(file: ContractFile, root: string = findProjectRoot()): string {
  return join(root, contractFiles[file]);
}

/**
 * The document as the code describes it today, in the one configuration every contract file is
 * made from (the development server's, as the tests' contract checks use): the same bytes on
 * every machine, whatever the environment says.
 */
export function currentDocument(): ContractDocument {
  return generateOpenApiDocument(routes, loadConfig({ APP_ENV: 'development' }));
}

/** The JSON of a generated contract file: two-space indentation and a final newline. */
export function contractJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

export function readContractJson<T>(file: ContractFile, root?: string): T {
  return JSON.parse(readFileSync(contractPath(file, root), 'utf8')) as T;
}

export function writeContractFile(file: ContractFile, text: string, root?: string): void {
  writeFileSync(contractPath(file, root), text);
}

export function contractFileExists(file: ContractFile, root?: string): boolean {
  return existsSync(contractPath(file, root));
}
