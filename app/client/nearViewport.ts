/**
 * Calls `handle` once for an element as it comes within a screen of the viewport (a hidden one
 * once it shows). The page's deferred work waits for it: done at start-up for elements no one can
 * see yet, it dirtied the whole page while the browser was scrolling to a deep link (decision 010).
 * An element waiting carries `data-near-viewport`, so that what is still to be built can be found
 * (the accessibility checks bring it in before they read the page).
 */
const PENDING = 'data-near-viewport';
const handlers = new WeakMap<Element, (element: Element) => void>();
let observer: IntersectionObserver | undefined;

export function whenNearViewport<T extends Element>(element: T, handle: (element: T) => void): void {
  if (typeof IntersectionObserver !== 'function') return handle(element);
  observer ??= new IntersectionObserver(
    (entries, self) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        self.unobserve(entry.target);
        entry.target.removeAttribute(PENDING);
        const handler = handlers.get(entry.target);
        handlers.delete(entry.target);
        handler?.(entry.target);
      }
    },
    { rootMargin: '100% 0px' },
  );
  handlers.set(element, handle as (element: Element) => void);
  element.setAttribute(PENDING, '');
  observer.observe(element);
}
