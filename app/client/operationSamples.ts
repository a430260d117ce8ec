/**
 * The reference's right columns (app/reference/OperationSamples.tsx): each operation's samples and
 * try-it console, fetched as the operation nears the viewport and wired like the rest of the page.
 * The page leaves them out so that a deep link has a third less to parse before it can scroll
 * (decision 010); a reader without JavaScript keeps the server's link to their page.
 */
import { initCodeBlocks } from './codeBlocks.js';
import { loadFragment } from './fragments.js';
import { whenNearViewport } from './nearViewport.js';
import { initSamples } from './samples.js';
import { initTryIt } from './tryIt.js';

async function load(aside: HTMLElement, url: string, fallback: string): Promise<void> {
  const title = aside.closest('.operation')?.querySelector('.operation__title')?.textContent ?? 'the operation';
  const loaded = await loadFragment(aside, {
    url,
    what: `the samples of ${title}`,
    fallback,
    retry: () => void load(aside, url, fallback),
  });
  if (!loaded) return;
  initCodeBlocks(aside);
  initSamples(aside);
  initTryIt(aside);
}

export function initOperationSamples(root: ParentNode): void {
  root.querySelectorAll<HTMLElement>('.operation__aside[data-samples]:not([data-enhanced])').forEach((aside) => {
    aside.dataset.enhanced = '';
    const url = aside.dataset.samples!;
    const fallback = aside.innerHTML;
    whenNearViewport(aside, () => void load(aside, url, fallback));
  });
}
