/**
 * The reference's schema trees (app/reference/SchemaTree.tsx): the variant pickers of `oneOf`/`anyOf`
 * and the deeper levels, fetched from /rest-api/schemas/<Name> the first time their `<details>`
 * opens. Idempotent: what is wired carries `data-enhanced`.
 */

function variantsOf(group: HTMLElement): HTMLDetailsElement[] {
  return Array.from(group.querySelectorAll<HTMLDetailsElement>(':scope > details[data-variant]'));
}

/** Shows one variant, open, and hides the others; the `<select>` names it. */
function showVariant(group: HTMLElement, index: number): void {
  variantsOf(group).forEach((variant, position) => {
    const shown = position === index;
    variant.hidden = !shown;
    if (shown) variant.open = true; // a lazy variant loads on this toggle
  });
}

function wireVariants(group: HTMLElement): void {
  const select = group.querySelector<HTMLSelectElement>(':scope > .schema-variants__picker select');
  if (!select) return;
  group.dataset.enhanced = '';
  select.parentElement!.hidden = false;
  select.addEventListener('change', () => showVariant(group, Number(select.value)));
  showVariant(group, Number(select.value) || 0);
}

function setSlot(slot: HTMLElement, html: string): void {
  slot.innerHTML = html;
}

async function load(details: HTMLDetailsElement): Promise<void> {
  const slot = details.querySelector<HTMLElement>(':scope > [data-schema-slot]');
  const name = details.dataset.schemaRef;
  if (!slot || !name || details.dataset.state === 'loading' || details.dataset.state === 'loaded') return;
  details.dataset.state = 'loading';
  slot.setAttribute('aria-busy', 'true');
  const fallback = slot.dataset.fallback ?? slot.innerHTML;
  slot.dataset.fallback = fallback;
  slot.innerHTML = '<p class="schema__loading" role="status"></p>';
  slot.firstElementChild!.textContent = `Loading ${name}…`;
  try {
    const response = await fetch(`/rest-api/schemas/${encodeURIComponent(name)}`, { headers: { Accept: 'text/html' } });
    if (!response.ok) throw new Error(`the server answered ${response.status}`);
    setSlot(slot, await response.text());
    details.dataset.state = 'loaded';
    initSchemaTrees(slot);
  } catch (error) {
    details.dataset.state = 'failed';
    setSlot(slot, `<p class="schema__error" role="alert"><span></span> <button type="button" class="schema__retry">Retry</button></p>${fallback}`);
    slot.querySelector('span')!.textContent = `${name} could not be loaded: ${error instanceof Error ? error.message : String(error)}.`;
    slot.querySelector('button')!.addEventListener('click', () => void load(details));
  } finally {
    slot.removeAttribute('aria-busy');
  }
}

function wireLazy(details: HTMLDetailsElement): void {
  details.dataset.enhanced = '';
  details.addEventListener('toggle', () => {
    if (details.open) void load(details);
  });
  if (details.open) void load(details);
}

/** Wires the trees under `root` (the document, a new page's body, or a fragment just inserted). */
export function initSchemaTrees(root: ParentNode): void {
  root.querySelectorAll<HTMLDetailsElement>('details[data-schema-ref]:not([data-enhanced])').forEach(wireLazy);
  root.querySelectorAll<HTMLElement>('[data-variants]:not([data-enhanced])').forEach(wireVariants);
}
