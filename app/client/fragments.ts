/**
 * Puts an HTML fragment of the server into a slot of the page: the reference's deeper schema
 * levels and its operations' samples arrive this way. While it loads the slot is `aria-busy` and
 * says so (the browser tests' settle step waits for it); if it fails, an alert says why with a
 * Retry button, above `fallback` (the server's link for a reader without JavaScript).
 */
export async function loadFragment(
  slot: HTMLElement,
  { url, what, fallback = '', retry }: { url: string; what: string; fallback?: string; retry: () => void },
): Promise<boolean> {
  slot.setAttribute('aria-busy', 'true');
  slot.innerHTML = '<p class="fragment__loading" role="status"></p>';
  slot.firstElementChild!.textContent = `Loading ${what}…`;
  try {
    const response = await fetch(url, { headers: { Accept: 'text/html' } });
    if (!response.ok) throw new Error(`the server answered ${response.status}`);
    slot.innerHTML = await response.text();
    return true;
  } catch (error) {
    slot.innerHTML = `<p class="fragment__error" role="alert"><span></span> <button type="button" class="fragment__retry">Retry</button></p>${fallback}`;
    slot.querySelector('span')!.textContent =
      `Could not load ${what}: ${error instanceof Error ? error.message : String(error)}.`;
    slot.querySelector('button')!.addEventListener('click', retry);
    return false;
  } finally {
    slot.removeAttribute('aria-busy');
  }
}
