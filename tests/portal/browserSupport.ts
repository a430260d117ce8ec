/**
 * What the portal's browser tests share: Debian's chromium and when to skip without it, the test
 * portal on a local port, the axe check, what a person's browser must never show (console errors,
 * page errors, a request that leaves the machine), and the portal's routes with their headings.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { docsCatalogue } from '../../app/docs/docs.server.js';
import { allCategories, allDocPaths } from '../../app/docs/sidebar.js';
import { siteTitle } from '../../app/site.js';
import { listenLocally } from '../support/miscLocalServer.js';
import { createTestPortal, testDocsAddresses } from './testPortal.js';

export const CHROMIUM_PATH = '/usr/bin/chromium';
// Debian's chromium, never a browser downloaded by a tool; these flags let it run headless here.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
export const WIDE = { width: 1280, height: 900 };
/** A phone: the drawer replaces the inline navbar (996 px or less), the brand shows its logo only (520 px or less). */
export const PHONE = { width: 390, height: 844 };

const hasChromium = existsSync(CHROMIUM_PATH);
const deliberatelySkipped = process.env.SKIP_BROWSER_TESTS === '1';
// On CI a missing browser is a broken machine, not a reason to skip: the suite runs and fails.
const mustRun = process.env.CI === 'true' && !deliberatelySkipped;
/** For `describe.skipIf`: every browser test file uses it, so all skip (or run) together. */
export const skipBrowserTests = deliberatelySkipped || (!hasChromium && !mustRun);
if (deliberatelySkipped) {
  console.warn('Browser tests skipped: SKIP_BROWSER_TESTS=1');
} else if (skipBrowserTests) {
  console.warn(`Browser tests skipped: ${CHROMIUM_PATH} not found (apt-get install -y chromium)`);
}

/** One browser per test file, launched in its beforeAll (where a missing chromium on CI fails). */
export function launchBrowser(): Promise<Browser> {
  if (!hasChromium) {
    throw new Error(`CI=true but ${CHROMIUM_PATH} is missing: apt-get install -y chromium`);
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

export interface RunningPortal {
  baseUrl: string;
  close(): Promise<void>;
}

/** The built portal (with /openapi.json) on a free port of 127.0.0.1. */
export async function startTestPortal(options: { testFixtures?: boolean } = {}): Promise<RunningPortal> {
  return listenLocally(await createTestPortal({ testFixtures: options.testFixtures }));
}

/**
 * axe-core as @axe-core/playwright ships it (its own dependency, so both always agree). The tests
 * run it in the page themselves: AxeBuilder.analyze() injects it again for every check and
 * finishes each run in a new page, which made the sixty checks of the suite three times slower
 * (the portal has no iframe, the one thing AxeBuilder adds).
 */
const axeSource = readFileSync(
  createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright')).resolve('axe-core/axe.min.js'),
  'utf8',
);

/** axe-core's serious and critical violations on the page as it is now, with the nodes concerned. */
/**
 * The parts of /rest-api axe checks: the chrome, the reference's navigation and header, two tags
 * whose operations use every component (parameters, bodies with oneOf and discriminators, nested
 * trees, responses, samples, try-it), and the start of the Schemas part. The page repeats those
 * components for 55 operations and 282 schemas; axe over all of them takes half a minute.
 */
export const REFERENCE_AXE_SCOPE = [
  'header.navbar',
  'footer.footer',
  '.reference-nav',
  '.reference__intro',
  '[id="tag/Event-Offers"]',
  '[id="tag/Collective-Offers"]',
  '[id="schemas"] > :nth-child(-n + 12)',
];

/**
 * What the page builds as it nears the viewport (app/client/nearViewport.ts marks it): a code
 * block's copy button, a variant picker put in from its template. axe scrolls elements into view
 * to read their colours, and an element built in the middle of a run is one axe never indexed:
 * the run fails on it (`reading 'nthChild'`). Bring each of them near the viewport first, so
 * that the page axe reads is the finished one, buttons and pickers included.
 */
async function settleDeferredElements(page: Page) {
  await page.evaluate(async () => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    // A part fetched as it nears the viewport (an operation's samples) is busy until it is in.
    const loaded = async () => {
      while (document.querySelector('[aria-busy="true"]')) await new Promise((resolve) => setTimeout(resolve, 20));
    };
    const scrolledTo = new Set<Element>();
    const nextPending = () =>
      [...document.querySelectorAll<HTMLElement>('[data-near-viewport]')].find(
        (element) => !scrolledTo.has(element) && element.checkVisibility(),
      );
    const { scrollX, scrollY } = window;
    // One element brings its neighbours within a screen along: most are never scrolled to.
    for (let element = nextPending(); element; element = nextPending()) {
      scrolledTo.add(element);
      element.scrollIntoView({ block: 'center' });
      await frame();
      await loaded();
    }
    window.scrollTo(scrollX, scrollY);
    await frame();
  });
}

export async function seriousViolations(page: Page, include?: string[]) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  // A scope that matches nothing would make the check pass by checking nothing.
  const missing = include
    ? await page.evaluate((selectors) => selectors.filter((selector) => !document.querySelector(selector)), include)
    : [];
  if (missing.length > 0) throw new Error(`axe scope matches nothing: ${missing.join(', ')}`);
  // axe reads colour contrast from what is painted, and the reference's parts off screen are not
  // rendered until they near the viewport (content-visibility: auto): render them all, as a reader
  // scrolling there would see them, so that axe checks real colours rather than unpainted boxes.
  await page.addStyleTag({
    content: '.reference__tag, .reference__schemas { content-visibility: visible !important; }',
  });
  await settleDeferredElements(page);
  // The rules axe-core runs by default, as AxeBuilder would (WCAG A and AA, best practices); only
  // the violations are collected, the rest of a report is what makes a run long.
  const results = await page.evaluate(
    (selectors) =>
      (window as unknown as { axe: { run(context: unknown, options: object): Promise<AxeResults> } }).axe.run(
        selectors ? { include: selectors.map((selector) => [selector]) } : document,
        { resultTypes: ['violations'] },
      ),
    include ?? null,
  );
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      targets: violation.nodes.map((node) => node.target.join(' ')),
    }));
}

/**
 * What a context's pages did that a reader must never meet: errors in the console, uncaught
 * exceptions, and requests to anything but the portal (there is no internet here, and a page
 * that needs it is broken for a reader behind a proxy too).
 */
export interface PageProblems {
  consoleErrors: string[];
  pageErrors: string[];
  externalRequests: string[];
  /** Forgets what was recorded so far (between two routes checked with the same context). */
  clear(): void;
}

function isLocal(url: string): boolean {
  if (url.startsWith('data:') || url.startsWith('blob:') || url === 'about:blank') return true;
  return new URL(url).hostname === '127.0.0.1';
}

export function watchProblems(context: BrowserContext): PageProblems {
  const problems: PageProblems = {
    consoleErrors: [],
    pageErrors: [],
    externalRequests: [],
    clear() {
      problems.consoleErrors.length = 0;
      problems.pageErrors.length = 0;
      problems.externalRequests.length = 0;
    },
  };
  context.on('console', (message) => {
    if (message.type() === 'error') problems.consoleErrors.push(`${message.page()?.url() ?? ''}: ${message.text()}`);
  });
  context.on('weberror', (error) => problems.pageErrors.push(`${error.page()?.url() ?? ''}: ${error.error().message}`));
  context.on('request', (request) => {
    if (!isLocal(request.url())) problems.externalRequests.push(request.url());
  });
  return problems;
}

/**
 * A context with its problems recorded; closing it closes its pages. With `axe`, every page of it
 * loads axe-core before its own script (the browser compiles it once for all of them): for
 * contexts that check many pages.
 */
export async function newWatchedContext(browser: Browser, options: BrowserContextOptions = {}, { axe = false } = {}) {
  const context = await browser.newContext(options);
  // A condition that never comes fails the test in seconds, not at the test's own timeout.
  context.setDefaultTimeout(10_000);
  if (axe) await context.addInitScript(axeSource);
  return { context, problems: watchProblems(context) };
}

export interface PortalRoute {
  path: string;
  /** The page's one h1. */
  heading: string;
  /** The document's title. */
  title: string;
  status: number;
  /** Pages in the docs layout: the docs sidebar beside the article (in the drawer on a phone). */
  docsSidebar: boolean;
}

/**
 * Every route of the portal a reader can reach, with the h1 the docs catalogue says it has: the
 * home page, the docs landing, each category and doc page, the reference, the change log, the
 * search page and an unknown path.
 */
export function portalRoutes(): PortalRoute[] {
  const { pages, changeLog } = docsCatalogue(testDocsAddresses);
  const titled = (heading: string) => `${heading} | ${siteTitle}`;
  const docs = (path: string, heading: string): PortalRoute => ({
    path,
    heading,
    title: titled(heading),
    status: 200,
    docsSidebar: true,
  });
  const other = (path: string, heading: string, title = titled(heading), status = 200): PortalRoute => ({
    path,
    heading,
    title,
    status,
    docsSidebar: false,
  });
  return [
    other('/', siteTitle, siteTitle),
    docs('/docs', pages.get('')!.frontMatter.title),
    ...allCategories().map((category) => docs(`/docs/category/${category.slug}`, category.label)),
    ...allDocPaths().map((path) => docs(`/docs/${path}`, pages.get(path)!.frontMatter.title)),
    other('/rest-api', 'REST API'),
    other('/rest-api/schemas/AddressModel', 'AddressModel', titled('AddressModel schema')),
    other('/rest-api/operations/PostEventOffer', 'Create an event offer', titled('Create an event offer: samples')),
    other('/change-logs', changeLog.frontMatter.title),
    other('/search?q=countermark', 'Search the documentation', titled('Search')),
    other('/some/unknown/page', 'Page Not Found', titled('Page Not Found'), 404),
  ];
}

/** The page on screen runs this window still: set before a click, it survives only a navigation without reload. */
export async function markWindow(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { __marker?: number }).__marker = 1;
  });
}

export function windowMarker(page: Page): Promise<number | undefined> {
  return page.evaluate(() => (window as unknown as { __marker?: number }).__marker);
}

/** The id of the element that has the focus, if it has one. */
export function focusedId(page: Page): Promise<string | null> {
  return page.evaluate(() => document.activeElement?.id ?? null);
}

/** Whether the element of this id (or the first `part` inside it) is on screen, below the sticky navbar. */
export function isShownBelowNavbar(page: Page, id: string, part?: string): Promise<boolean> {
  return page.evaluate(
    ([targetId, partSelector]) => {
      const element = document.getElementById(targetId)!;
      const box = (partSelector ? element.querySelector(partSelector)! : element).getBoundingClientRect();
      return (
        box.top >= document.querySelector('.navbar')!.getBoundingClientRect().bottom && box.bottom <= window.innerHeight
      );
    },
    [id, part] as const,
  );
}

/** Waits until the page's h1 reads `text` (client-side navigations change it without a load event). */
export async function waitForHeading(page: Page, text: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name: text, exact: true }).waitFor({ state: 'visible' });
}

export interface OpenedPage {
  page: Page;
  context: BrowserContext;
  problems: PageProblems;
}

export interface BrowserSession {
  readonly baseUrl: string;
  readonly browser: Browser;
  /** A new context (closed after the test) and its first page; `path` is opened when given. */
  open(options?: BrowserContextOptions & { path?: string }): Promise<OpenedPage>;
}

/**
 * For a describe block: the test portal (or what `serve` starts) and one chromium, started in
 * beforeAll and stopped in afterAll; the contexts a test opens are closed after it, passed or failed.
 */
export function useBrowser(
  options: { testFixtures?: boolean; serve?: () => Promise<RunningPortal> } = {},
): BrowserSession {
  let portal: RunningPortal | undefined;
  let browser: Browser | undefined;
  const opened: { context: BrowserContext; problems: PageProblems }[] = [];

  beforeAll(async () => {
    portal = await (options.serve ?? (() => startTestPortal(options)))();
    browser = await launchBrowser();
  }, 180_000);

  // Whatever a test did, its pages threw no uncaught exception and fetched nothing from outside.
  afterEach(async () => {
    const done = opened.splice(0);
    await Promise.all(done.map(({ context }) => context.close()));
    expect(done.flatMap(({ problems }) => problems.pageErrors)).toEqual([]);
    expect(done.flatMap(({ problems }) => problems.externalRequests)).toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });

  return {
    get baseUrl() {
      return portal!.baseUrl;
    },
    get browser() {
      return browser!;
    },
    async open({ path, ...contextOptions } = {}) {
      const { context, problems } = await newWatchedContext(browser!, { viewport: WIDE, ...contextOptions });
      opened.push({ context, problems });
      const page = await context.newPage();
      if (path !== undefined) await page.goto(`${portal!.baseUrl}${path}`);
      return { page, context, problems };
    },
  };
}
