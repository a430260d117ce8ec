// What a reader of /rest-api waits for, measured in Debian's chromium with playwright-core: when
// the first operation is painted (Element Timing on the element marked `elementtiming=
// "first-operation"`, else the first contentful paint), and when a deep link's operation reaches
// its final position (its top sampled every frame from the document's start; settled once it no
// longer moves). Times are from the start of the navigation.
import { type Page, chromium } from 'playwright-core';

const CHROMIUM_PATH = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu'];
const SAMPLE_FOR_MS = 3_000;

export interface ReferenceRun {
  firstOperationMs: number;
  deepLinkSettledMs: number;
  consoleErrors: string[];
  outsideRequests: string[];
}

/** Runs before the page's own code: observers and a per-frame sample of the anchor's position. */
function recordTimings(sampleForMs: number): void {
  const timings: { firstOperation?: number; samples: [number, number][] } = { samples: [] };
  (window as unknown as { __timings: typeof timings }).__timings = timings;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as (PerformanceEntry & {
      identifier?: string;
      renderTime?: number;
      loadTime?: number;
    })[]) {
      if (entry.identifier === 'first-operation') timings.firstOperation ??= entry.renderTime || entry.loadTime;
    }
  }).observe({ type: 'element', buffered: true });
  const anchor = decodeURIComponent(location.hash.slice(1));
  const frame = () => {
    const target = anchor ? document.getElementById(anchor) : null;
    if (target) timings.samples.push([performance.now(), Math.round(target.getBoundingClientRect().top)]);
    if (performance.now() < sampleForMs) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

function settledAt(samples: [number, number][]): number {
  if (samples.length === 0) return Number.NaN;
  const final = samples[samples.length - 1][1];
  let index = samples.length - 1;
  while (index > 0 && Math.abs(samples[index - 1][1] - final) <= 1) index -= 1;
  return samples[index][0];
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

/** `runs` measurements, each in a fresh browser context (an empty cache) at 1280x900, in one chromium. */
async function inFreshPages<T>(runs: number, measure: (page: Page) => Promise<T>): Promise<T[]> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const results: T[] = [];
  try {
    for (let run = 0; run < runs; run += 1) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      results.push(await measure(await context.newPage()));
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return results;
}

/**
 * `runs` fresh loads of `/rest-api#<deepLinkAnchor>` at 1280x900, with the CPU slowed down
 * `cpuSlowdown` times (4 is Lighthouse's mobile figure).
 */
export async function measureReference(
  origin: string,
  deepLinkAnchor: string,
  runs: number,
  cpuSlowdown = 1,
): Promise<ReferenceRun[]> {
  return inFreshPages(runs, async (page) => {
    const consoleErrors: string[] = [];
    const outsideRequests: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(String(error)));
    page.on('request', (request) => {
      if (!request.url().startsWith(origin) && !request.url().startsWith('data:')) outsideRequests.push(request.url());
    });
    if (cpuSlowdown > 1) {
      const session = await page.context().newCDPSession(page);
      await session.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
    }
    await page.addInitScript(recordTimings, SAMPLE_FOR_MS);
    await page.goto(`${origin}/rest-api#${deepLinkAnchor}`, { waitUntil: 'load' });
    await page.waitForFunction((until) => performance.now() > until, SAMPLE_FOR_MS, { timeout: SAMPLE_FOR_MS * 4 });
    const timings = await page.evaluate(() => {
      const recorded = (window as unknown as { __timings: { firstOperation?: number; samples: [number, number][] } })
        .__timings;
      const paint = performance.getEntriesByName('first-contentful-paint')[0]?.startTime;
      return { firstOperation: recorded.firstOperation ?? paint ?? Number.NaN, samples: recorded.samples };
    });
    return {
      firstOperationMs: timings.firstOperation,
      deepLinkSettledMs: settledAt(timings.samples),
      consoleErrors,
      outsideRequests,
    };
  });
}

/**
 * The median first contentful paint of `path` over `runs` fresh loads at 1280x900: for scale, what
 * this browser on this machine takes to paint any page of the portal, however small.
 */
export async function measureFirstPaint(origin: string, path: string, runs: number): Promise<number> {
  const paints = await inFreshPages(runs, async (page) => {
    await page.goto(`${origin}${path}`, { waitUntil: 'load' });
    await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0);
    return page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0].startTime);
  });
  return median(paints);
}
