/**
 * Navigation without reloads, for pages that are complete HTML from the server. A followed link
 * or a GET form fetches the next page, shows the spinner while it loads, and swaps the body in.
 * A failed load shows the error box with the error text and a Retry button. When the next page
 * needs a script or stylesheet this page has not loaded (a new release), the page is loaded in
 * full instead, the same way a failed route-module load reloads a Remix app.
 */

import { siteTitle } from '../site.js';

type Enhance = (root: ParentNode) => void;

interface FetchedPage {
  url: string;
  html: string;
}

/** The API's paths and the files beside the pages: never fetched as pages. */
const NOT_PAGES = /^\/(public|v2|graphql|openapi\.json|build|images|healthz|health)(\/|$)/;
const PREFETCH_DELAY_MS = 60;
const PREFETCH_TTL_MS = 30_000;

const prefetched = new Map<string, { at: number; page: Promise<FetchedPage> }>();
let current: AbortController | null = null;
let enhancePage: Enhance = () => {};
/** The page on screen, without its anchor: a popstate to the same page only moved an anchor. */
let shownUrl = '';

function isPageUrl(url: URL): boolean {
  return url.origin === location.origin && !NOT_PAGES.test(url.pathname);
}

function withoutHash(url: string): string {
  return url.split('#')[0];
}

async function fetchPage(url: string, signal?: AbortSignal): Promise<FetchedPage> {
  const response = await fetch(url, { headers: { Accept: 'text/html' }, credentials: 'same-origin', signal });
  if (!(response.headers.get('content-type') ?? '').includes('text/html')) throw new NotAPage(response.url);
  return { url: response.url, html: await response.text() };
}

class NotAPage extends Error {}

function cachedPage(url: string): Promise<FetchedPage> | undefined {
  const entry = prefetched.get(withoutHash(url));
  prefetched.delete(withoutHash(url));
  return entry && Date.now() - entry.at < PREFETCH_TTL_MS ? entry.page : undefined;
}

function prefetch(url: string): void {
  const key = withoutHash(url);
  const entry = prefetched.get(key);
  if (entry && Date.now() - entry.at < PREFETCH_TTL_MS) return;
  const page = fetchPage(key);
  page.catch(() => prefetched.delete(key));
  prefetched.set(key, { at: Date.now(), page });
}

function setLoading(loading: boolean): void {
  const spinner = document.querySelector<HTMLElement>('[data-page-loading]');
  if (spinner) spinner.hidden = !loading;
  document.documentElement.toggleAttribute('data-navigating', loading);
}

/** The scripts and stylesheets a document runs with: when they differ, the page is loaded in full. */
function assetsOf(root: Document): string {
  // Stylesheets are written into the page, each `<style>` naming its file (app/components/Stylesheets.tsx).
  return [...root.querySelectorAll('script[src], link[rel="stylesheet"], style[data-href]')]
    .map((element) => element.getAttribute('src') ?? element.getAttribute('href') ?? element.getAttribute('data-href'))
    .join(' ');
}

function showPage(page: FetchedPage, hash: string): void {
  const next = new DOMParser().parseFromString(page.html, 'text/html');
  if (assetsOf(next) !== assetsOf(document)) {
    location.assign(page.url + hash);
    return;
  }
  document.title = next.title;
  const description = next.querySelector('meta[name="description"]')?.getAttribute('content');
  document.querySelector('meta[name="description"]')?.setAttribute('content', description ?? '');
  document.body.replaceWith(document.adoptNode(next.body));
  enhancePage(document.body);
}

function scrollToTarget(hash: string, scrollY?: number): void {
  const target = hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
  if (target) target.scrollIntoView();
  else window.scrollTo(0, scrollY ?? 0);
  // Screen readers start reading the new page; the focus outline does not show for a pointer.
  document.getElementById('main')?.focus({ preventScroll: true });
}

function showLoadError(error: unknown, retry: () => void): void {
  const main = document.getElementById('main');
  if (!main) return;
  const box = document.createElement('div');
  box.className = 'container status-page';
  box.innerHTML =
    '<div class="error-box" role="alert"><h1 class="error-box__title">This page could not be loaded</h1>' +
    '<p class="error-box__message"></p><p><button type="button" class="button">Retry</button></p></div>';
  box.querySelector('.error-box__message')!.textContent = error instanceof Error ? error.message : String(error);
  box.querySelector('button')!.addEventListener('click', retry);
  main.replaceChildren(box);
  // The title the server gives the same box (app/meta.ts), read out when the page changes.
  document.title = `This page could not be loaded | ${siteTitle}`;
}

export async function navigate(
  url: string,
  { push = true, scrollY }: { push?: boolean; scrollY?: number } = {},
): Promise<void> {
  current?.abort();
  const controller = new AbortController();
  current = controller;
  if (push) history.replaceState({ ...history.state, scrollY: window.scrollY }, '');
  setLoading(true);
  const hash = new URL(url, location.href).hash;
  try {
    const page = await (cachedPage(url) ?? fetchPage(withoutHash(url), controller.signal));
    if (controller.signal.aborted) return;
    const finalUrl = page.url + hash;
    if (push) history.pushState({}, '', finalUrl);
    else if (finalUrl !== location.href) history.replaceState(history.state, '', finalUrl);
    shownUrl = withoutHash(location.href);
    showPage(page, hash);
    scrollToTarget(hash, scrollY);
  } catch (error) {
    if (controller.signal.aborted) return;
    if (error instanceof NotAPage) {
      location.assign(error.message || url);
      return;
    }
    if (push) history.pushState({}, '', url);
    shownUrl = withoutHash(location.href);
    setLoading(false);
    showLoadError(error, () => void navigate(url, { push: false }));
  } finally {
    if (current === controller) {
      current = null;
      setLoading(false);
    }
  }
}

function followableLink(event: Event): HTMLAnchorElement | null {
  const link = (event.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null;
  if (!link || link.hasAttribute('download') || (link.target && link.target !== '_self')) return null;
  const url = new URL(link.href, location.href);
  return isPageUrl(url) ? link : null;
}

function onClick(event: MouseEvent): void {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
    return;
  const link = followableLink(event);
  if (!link) return;
  const url = new URL(link.href);
  // An anchor on the page being read: the browser scrolls there itself.
  if (url.hash && withoutHash(url.href) === withoutHash(location.href)) return;
  event.preventDefault();
  void navigate(url.href);
}

function onSubmit(event: SubmitEvent): void {
  const form = event.target as HTMLFormElement;
  if (event.defaultPrevented || form.method.toLowerCase() !== 'get') return;
  const url = new URL(form.action, location.href);
  if (!isPageUrl(url)) return;
  event.preventDefault();
  url.search = new URLSearchParams(new FormData(form) as unknown as Record<string, string>).toString();
  void navigate(url.href, { push: !form.hasAttribute('data-reload') });
}

let intent: ReturnType<typeof setTimeout> | undefined;
function onIntent(event: Event): void {
  const link = followableLink(event);
  clearTimeout(intent);
  // A link to an anchor of the page being read is a scroll, not a load: nothing to prefetch.
  if (link && withoutHash(link.href) !== withoutHash(location.href))
    intent = setTimeout(() => prefetch(link.href), PREFETCH_DELAY_MS);
}

export function initNavigation(enhance: Enhance): void {
  enhancePage = enhance;
  shownUrl = withoutHash(location.href);
  document.addEventListener('click', onClick);
  document.addEventListener('submit', onSubmit);
  document.addEventListener('mouseover', onIntent);
  document.addEventListener('focusin', onIntent);
  document.addEventListener('touchstart', onIntent, { passive: true });
  window.addEventListener('popstate', (event) => {
    // Only the anchor changed: the browser has already scrolled.
    if (withoutHash(location.href) === shownUrl) return;
    void navigate(location.href, { push: false, scrollY: (event.state as { scrollY?: number } | null)?.scrollY });
  });
}
