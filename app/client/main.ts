/**
 * The portal's only script (decision 009): the pages are complete without it; it adds
 * navigation without reloads, search, code tabs, copy buttons and the chrome's small behaviours.
 */
import { initCodeBlocks } from './codeBlocks.js';
import { initNavigation } from './navigation.js';
import { initSearch } from './search.js';
import { initChrome, initSettings } from './settings.js';

function enhance(root: ParentNode): void {
  initSettings(root);
  initSearch(root);
  initCodeBlocks(root);
  // The reference's behaviours (try-it, schema variants and depths, its search) load only there.
  if (root.querySelector('[data-reference]'))
    void import('./reference.js').then(({ initReference }) => initReference(root));
}

initChrome();
initNavigation(enhance);
enhance(document);
