/**
 * Calls `handle` once for an element as it comes within a screen of the viewport (a hidden one
 * once it shows). The page's deferred work waits for it: done at start-up for elements no one can
 * see yet, it dirtied the whole page while the browser was scrolling to a deep link (decision 010).
 */
const handlers = new WeakMap<Element, (element: Element) => void>();
let observer: IntersectionObserver | undefined;

export function whenNearViewport<T extends Element>(element: T, handle: (element: T) => void): void {
  if (typeof IntersectionObserver !== 'function') return handle(element);
  observer ??= new IntersectionObserver(
    (entries, self) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        self.unobserve(entry.target);
        const handler = handlers.get(entry.target);
        handlers.delete(entry.target);
        handler?.(entry.target);
      }
    },
    { rootMargin: '100% 0px' },
  );
  handlers.set(element, handle as (element: Element) => void);
  observer.observe(element);
}
