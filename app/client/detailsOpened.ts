/**
 * Calls `handle` with each `<details>` matching `selector` that opens, anywhere in the document,
 * now or after a client-side navigation. `toggle` does not bubble: one listener in the capture
 * phase serves the whole page, so nothing is wired per element before a reader opens one.
 */
export function whenDetailsOpen(selector: string, handle: (details: HTMLDetailsElement) => void): void {
  document.addEventListener(
    'toggle',
    (event) => {
      const target = event.target;
      if (target instanceof HTMLDetailsElement && target.open && target.matches(selector)) handle(target);
    },
    true,
  );
}
