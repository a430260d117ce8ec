/**
 * The reference page's behaviours, in a chunk of their own: doc pages never download them.
 * Each init is idempotent (a client-side navigation calls it again on the new body).
 */
import { initOperationSamples } from './operationSamples.js';
import { initReferenceSearch } from './referenceSearch.js';
import { initSamples } from './samples.js';
import { initSchemaTrees, initVariantPickers } from './schemaTrees.js';
import { initTryIt } from './tryIt.js';

export function initReference(root: ParentNode): void {
  initTryIt(root);
  initReferenceSearch(root);
  initSchemaTrees();
  initVariantPickers(root);
  initSamples(root);
  initOperationSamples(root);
}
