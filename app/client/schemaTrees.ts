/**
 * The reference's schema trees (app/reference/SchemaTree.tsx): the variant pickers of `oneOf`/`anyOf`
 * and the deeper levels, fetched from /rest-api/schemas/<Name>/fragment the first time their
 * `<details data-schema-ref>` opens, including a schema's section when a link or the address targets
 * it. Everything listens once on the document: the page wires nothing per tree before it is used,
 * so a phone's main thread is not held by a thousand listeners at load.
 */
import { schemaFragmentPath } from '../reference/schema.js';
import { whenDetailsOpen } from './detailsOpened.js';
import { loadFragment } from './fragments.js';
import { whenNearViewport } from './nearViewport.js';

const SCHEMA_ANCHOR = 'schema/';

/** The slot a lazy `<details>` fills: the server's fallback link, replaced by a `<div>` on first load. */
function slotOf(details: HTMLDetailsElement): HTMLElement | null {
  const slot = details.querySelector<HTMLElement>(':scope > [data-schema-slot]');
  if (!slot || slot.tagName === 'DIV') return slot;
  const div = document.createElement('div');
  div.className = 'schema__slot';
  div.dataset.schemaSlot = '';
  div.dataset.fallback = slot.outerHTML;
  slot.replaceWith(div);
  return div;
}

async function load(details: HTMLDetailsElement): Promise<void> {
  const name = details.dataset.schemaRef;
  if (!name || details.dataset.state === 'loading' || details.dataset.state === 'loaded') return;
  const slot = slotOf(details);
  if (!slot) return;
  details.dataset.state = 'loading';
  const loaded = await loadFragment(slot, {
    // On a schema's own page, names link to their pages: there is no `#schema/` section to go to.
    url: schemaFragmentPath(name) + (details.closest('.schema-page') ? '?links=pages' : ''),
    what: name,
    fallback: slot.dataset.fallback,
    retry: () => void load(details),
  });
  if (loaded) initVariantPickers(slot);
  details.dataset.state = loaded ? 'loaded' : 'failed';
}

/**
 * Shows one variant, open, and hides the others. A variant the server left as a link (one of many
 * named ones) becomes a lazy `<details>` the first time it is picked, and loads as it opens.
 */
function showVariant(group: HTMLElement, select: HTMLSelectElement): void {
  const index = Math.max(select.selectedIndex, 0);
  group.dataset.picked = '';
  let shown = group.querySelector<HTMLDetailsElement>(`:scope > details[data-variant="${index}"]`);
  const option = select.options[select.selectedIndex];
  if (!shown && option?.dataset.schemaRef) {
    shown = document.createElement('details');
    shown.className = 'schema-variant';
    shown.dataset.schemaRef = option.dataset.schemaRef;
    shown.dataset.variant = String(index);
    const summary = document.createElement('summary');
    summary.textContent = option.textContent;
    const slot = document.createElement('div');
    slot.className = 'schema__slot';
    slot.dataset.schemaSlot = '';
    shown.append(summary, slot);
    group.querySelector(':scope > [data-variant-links]')!.before(shown);
  }
  group.querySelectorAll<HTMLDetailsElement>(':scope > details[data-variant]').forEach((variant) => {
    variant.hidden = variant !== shown;
  });
  if (shown) {
    if (shown.open && shown.dataset.schemaRef) void load(shown);
    shown.open = true; // a lazy variant loads on this toggle
  }
}

/** The section of `#schema/<Name>`, its fields loaded: a link to a schema or the address named it. */
export function openTargetedSchema(hash: string = location.hash): void {
  const anchor = decodeURIComponent(hash.replace(/^#/, ''));
  if (!anchor.startsWith(SCHEMA_ANCHOR)) return;
  const details = document
    .getElementById(anchor)
    ?.querySelector<HTMLDetailsElement>(':scope > details[data-schema-ref]');
  if (details) details.open = true;
}

/** The variant pickers under `root`, each put in from its `<template>` as it nears the viewport. */
export function initVariantPickers(root: ParentNode): void {
  root.querySelectorAll<HTMLElement>('[data-variant-picker]:not([data-enhanced])').forEach((place) => {
    place.dataset.enhanced = '';
    whenNearViewport(place, () => {
      const template = place.querySelector(':scope > template');
      if (template instanceof HTMLTemplateElement) template.replaceWith(template.content);
    });
  });
}

let listening = false;

/** Listens for the trees of the page and of any later one (a client-side navigation): idempotent. */
export function initSchemaTrees(): void {
  if (!listening) {
    listening = true;
    whenDetailsOpen('details[data-schema-ref]', (details) => void load(details));
    document.addEventListener('change', (event) => {
      const select = event.target;
      if (!(select instanceof HTMLSelectElement) || !select.matches('[data-variant-select]')) return;
      const group = select.closest<HTMLElement>('[data-variants]');
      if (group) showVariant(group, select);
    });
    window.addEventListener('hashchange', () => openTargetedSchema());
  }
  openTargetedSchema();
}
