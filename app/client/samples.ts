/**
 * The reference's JavaScript, Python and SDK request samples, written in the browser the first time
 * their tab shows (app/reference/CodeTabs.tsx leaves them empty, with the request in a JSON
 * `<script data-sample-request>`), by the same functions the server writes curl with.
 */
import { type SampleRequest, writeSample } from '../reference/samples.js';

function fill(panel: HTMLElement): void {
  const language = panel.dataset.samplePending;
  const data = panel.closest('.code-tabs')?.querySelector(':scope > script[data-sample-request]')?.textContent;
  const code = panel.querySelector('code');
  if (!language || !data || !code) return;
  const written = writeSample(language, JSON.parse(data) as SampleRequest);
  if (written === null) return;
  code.textContent = written;
  delete panel.dataset.samplePending;
}

let listening = false;

/** Fills the samples shown now (a remembered language) and, from then on, each one as its tab shows. */
export function initSamples(root: ParentNode): void {
  if (!listening) {
    listening = true;
    // app/client/codeBlocks.ts announces each panel it shows.
    document.addEventListener('code-tabs:shown', (event) => {
      if (event.target instanceof HTMLElement && event.target.dataset.samplePending) fill(event.target);
    });
  }
  root.querySelectorAll<HTMLElement>('.code-tabs__panel[data-sample-pending]:not([hidden])').forEach(fill);
}
