// `npm run bench:portal`: the developer portal against the targets of its issue. A cold portal
// build (wall time, peak RSS); the built portal served as `npm start` serves it (production,
// compression); the JavaScript each page executes, fetched and gzipped here; the response headers;
// and Lighthouse 12 (mobile and desktop presets) on the home page, a doc page and the change logs.
// Options: --runs N (or BENCH_PORTAL_RUNS), Lighthouse runs per page and preset, default 3; the
// run with the median performance score is the one reported. --every-route adds one mobile and
// one desktop run on every route the home page leads to (the targets hold on each but /rest-api,
// which has its own). --reference-only measures /rest-api alone (no cold build, no other page).
import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { constants, gzipSync } from 'node:zlib';
import { launch } from 'chrome-launcher';
import express from 'express';
import lighthouse, { type Config, type Result } from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { routes } from '../../rest-facade/index.js';
import { generateOpenApiDocument } from '../../rest-facade/openapi.js';
import { loadConfig } from '../../server/config.js';
import { createPortalHandler, findProjectRoot } from '../../server/portal.js';
import { crawlPortalLinks } from '../../server/portalLinks.js';
import { measureFirstPaint, median, measureReference } from './referenceTimings.js';
import { listen } from './servers.js';

const PAGES = [
  { label: 'home', path: '/' },
  { label: 'doc', path: '/docs/understanding-our-api/authentication-authorization' },
  { label: 'change-logs', path: '/change-logs' },
];
// Lighthouse's default config is the mobile preset (Moto G Power, slow 4G, 4x CPU slowdown).
const PRESETS: { label: string; config?: Config }[] = [
  { label: 'mobile' },
  { label: 'desktop', config: desktopConfig },
];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
// Debian's Chromium: the bench never downloads a browser.
const CHROME_PATH = '/usr/bin/chromium';
const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu'];
const IMMUTABLE = 'public, max-age=31536000, immutable';

// The issue's targets and the usual stack's (Docusaurus) figures; 1 KB = 1000 bytes.
const KB = 1000;
const TARGET = { docJsGzip: 60 * KB, performance: 95, accessibility: 100, buildSeconds: 15 };
// The reference's own targets (issue 9's weights, issue 41's times on a phone and its mobile
// score), and Docusaurus + Redoc's figures on the same contract.
const REFERENCE_TARGET = {
  jsGzip: 100 * KB,
  mobileTbtMs: 200,
  mobilePerformance: 100,
  accessibility: 100,
  firstOperationMs: 250,
  deepLinkMs: 400,
  deepLinkSlowedMs: 1000,
  htmlGzip: 150 * KB,
};
const REDOC = { jsGzip: 519 * KB, desktopPerformance: 76, mobilePerformance: 70, accessibility: 89, deepLinkMs: 1800 };
const DOCUSAURUS = {
  docJsGzip: 186 * KB,
  homeJsGzip: 166 * KB,
  performance: 91,
  accessibility: 96,
  buildSeconds: 39,
  buildRssBytes: 1.2e9,
};

const root = findProjectRoot();
let failures = 0;

function runsOption(): number {
  const index = process.argv.indexOf('--runs');
  const raw = index === -1 ? process.env.BENCH_PORTAL_RUNS : process.argv[index + 1];
  if (raw === undefined || raw === '') return 3;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--runs must be a positive integer, got ${raw}`);
  return value;
}

const ratio = (value: number, reference: number) => `${(value / reference).toFixed(2)}x`;
const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');
const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;

// ---------------------------------------------------------------------------------------------
// Cold build: no output and no cache left from a previous one (Remix's compiler cache is
// .cache/content-v2, index-v5 and tmp). The previous output is moved aside rather than deleted,
// and put back after a failure, so the repository stays runnable.
// ---------------------------------------------------------------------------------------------
interface BuildFigures {
  seconds: number;
  peakRssBytes?: number;
}

function coldBuild(): BuildFigures {
  const outputs = ['build', join('public', 'build')];
  mkdirSync(join(root, '.cache'), { recursive: true });
  const aside = mkdtempSync(join(root, '.cache', 'bench-portal-aside-'));
  const moveAll = (from: string, to: string) => {
    for (const output of outputs) {
      if (!existsSync(join(from, output))) continue;
      rmSync(join(to, output), { recursive: true, force: true });
      mkdirSync(dirname(join(to, output)), { recursive: true });
      renameSync(join(from, output), join(to, output));
    }
  };
  moveAll(root, aside);
  for (const cache of ['portal-build', 'content-v2', 'index-v5', 'tmp'])
    rmSync(join(root, '.cache', cache), { recursive: true, force: true });
  try {
    // GNU time reports the peak RSS of the largest process of the build (the Remix compiler).
    const timed = existsSync('/usr/bin/time');
    const [command, args] = timed
      ? ['/usr/bin/time', ['-v', process.execPath, 'scripts/build-portal.mjs']]
      : [process.execPath, ['scripts/build-portal.mjs']];
    const started = performance.now();
    const child = spawnSync(command, args, {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, NODE_ENV: 'production' },
    });
    const seconds = (performance.now() - started) / 1000;
    if (child.status !== 0) {
      moveAll(aside, root);
      throw new Error(
        `cold build failed (exit ${child.status}), previous build restored:\n${child.stdout}${child.stderr}`,
      );
    }
    const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(child.stderr);
    return { seconds, peakRssBytes: rss ? Number(rss[1]) * 1024 : undefined };
  } finally {
    rmSync(aside, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Without Lighthouse: the scripts a page loads, as a browser finds them in its HTML, fetched and
// gzipped here at level 9, whatever the server sends; and the headers they are served with.
// ---------------------------------------------------------------------------------------------
interface PageFetch {
  scripts: string[];
  jsRawBytes: number;
  jsGzipBytes: number;
  checks: { what: string; ok: boolean; detail: string }[];
}

function tags(html: string, name: string): Record<string, string>[] {
  const found: Record<string, string>[] = [];
  for (const tag of html.matchAll(new RegExp(`<${name}\\b([^>]*)>`, 'gi'))) {
    const attributes: Record<string, string> = {};
    for (const [, key, quoted, single, bare] of tag[1].matchAll(
      /([\w:-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g,
    )) {
      attributes[key.toLowerCase()] = (quoted ?? single ?? bare ?? '').replaceAll('&amp;', '&');
    }
    found.push(attributes);
  }
  return found;
}

async function fetchPage(origin: string, path: string): Promise<PageFetch> {
  // fetch() decodes the body; the content-encoding header still says how it travelled.
  const get = (url: string) => fetch(new URL(url, origin), { headers: { 'accept-encoding': 'br, gzip' } });
  const checks: PageFetch['checks'] = [];
  const compressed = (what: string, response: Response) => {
    const encoding = response.headers.get('content-encoding') ?? 'none';
    checks.push({
      what: `${what} compressed`,
      ok: response.status === 200 && ['br', 'gzip'].includes(encoding),
      detail: `${response.status}, content-encoding: ${encoding}`,
    });
  };

  const page = await get(path);
  compressed(`HTML ${path}`, page);
  const html = await page.text();
  const scripts = [
    ...tags(html, 'script')
      .filter((tag) => tag.src)
      .map((tag) => tag.src),
    ...tags(html, 'link')
      .filter((tag) => tag.rel?.split(/\s+/).includes('modulepreload') && tag.href)
      .map((tag) => tag.href),
  ].filter((url, index, all) => all.indexOf(url) === index);
  // Every fingerprinted file the page names (scripts, stylesheets, icons, preloads).
  const assets = [...scripts, ...tags(html, 'link').map((tag) => tag.href ?? '')]
    .filter((url) => new URL(url, origin).origin === origin && new URL(url, origin).pathname.startsWith('/build/'))
    .filter((url, index, all) => all.indexOf(url) === index);

  let jsRawBytes = 0;
  let jsGzipBytes = 0;
  // A module runs the chunks it imports statically too (`import"./chunk-….js"`): they are followed;
  // the dynamic import() of the reference's chunk is not, since doc pages never run it.
  for (let index = 0; index < scripts.length; index += 1) {
    const response = await get(scripts[index]);
    compressed(`JS ${scripts[index]}`, response);
    const body = Buffer.from(await response.arrayBuffer());
    jsRawBytes += body.length;
    jsGzipBytes += gzipSync(body, { level: constants.Z_BEST_COMPRESSION }).length;
    const base = new URL(scripts[index], origin);
    for (const [, specifier] of body
      .toString('utf8')
      .matchAll(/(?:^|[;}\s])import\s*(?:[\w${},*\s]+from\s*)?"(\.[^"]+)"/g)) {
      const imported = new URL(specifier, base).pathname;
      if (!scripts.includes(imported)) scripts.push(imported);
    }
  }
  for (const asset of assets) {
    const response = await get(asset);
    await response.arrayBuffer();
    const cacheControl = response.headers.get('cache-control') ?? 'none';
    checks.push({
      what: `Cache-Control ${asset}`,
      ok: response.status === 200 && cacheControl === IMMUTABLE,
      detail: `${response.status}, ${cacheControl}`,
    });
  }
  return { scripts, jsRawBytes, jsGzipBytes, checks };
}

// ---------------------------------------------------------------------------------------------
// Lighthouse: one Chromium for every run (Lighthouse clears the cache and storage before each).
// ---------------------------------------------------------------------------------------------
interface Measured {
  runs: number[];
  lhr: Result;
}

async function runLighthouse(url: string, port: number, config: Config | undefined, runs: number): Promise<Measured> {
  const results: Result[] = [];
  for (let run = 0; run < runs; run += 1) {
    const result = await lighthouse(
      url,
      { port, logLevel: 'error', output: 'json', onlyCategories: CATEGORIES },
      config,
    );
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    // Lighthouse resolves even when the page failed to load: the error is in the result.
    if (result.lhr.runtimeError)
      throw new Error(`Lighthouse on ${url}: ${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message}`);
    results.push(result.lhr);
  }
  const score = (lhr: Result) => lhr.categories.performance.score ?? 0;
  const sorted = [...results].sort((a, b) => score(a) - score(b));
  return { runs: results.map((lhr) => Math.round(score(lhr) * 100)), lhr: sorted[Math.floor((sorted.length - 1) / 2)] };
}

interface NetworkItem {
  url: string;
  resourceType?: string;
  transferSize?: number;
  resourceSize?: number;
}

function figures(lhr: Result) {
  const scores = Object.fromEntries(CATEGORIES.map((id) => [id, Math.round((lhr.categories[id]?.score ?? 0) * 100)]));
  const metric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  const items = (lhr.audits['network-requests']?.details as { items?: NetworkItem[] } | undefined)?.items ?? [];
  const scripts = items.filter((item) => item.resourceType === 'Script');
  const documentItem = items.find((item) => item.resourceType === 'Document');
  return {
    scores,
    fcp: metric('first-contentful-paint'),
    lcp: metric('largest-contentful-paint'),
    tbt: metric('total-blocking-time'),
    cls: metric('cumulative-layout-shift'),
    scriptCount: scripts.length,
    jsTransfer: scripts.reduce((sum, item) => sum + (item.transferSize ?? 0), 0),
    jsResource: scripts.reduce((sum, item) => sum + (item.resourceSize ?? 0), 0),
    htmlTransfer: documentItem?.transferSize ?? 0,
  };
}

/**
 * The audits that cost a category points (weighted, below full marks) with what Lighthouse names
 * as the cause; for performance also the opportunities that would save time.
 */
function losses(lhr: Result, category: string): string[] {
  const lines: string[] = [];
  for (const ref of lhr.categories[category].auditRefs) {
    const audit = lhr.audits[ref.id];
    if (audit.score === null || audit.score >= 1) continue;
    const savings = Object.values(audit.metricSavings ?? {}).some((saved) => (saved ?? 0) > 0);
    if (ref.weight === 0 && !(category === 'performance' && savings)) continue;
    lines.push(
      `    ${ref.id} (score ${audit.score}, weight ${ref.weight}): ${audit.title}${audit.displayValue ? ` — ${audit.displayValue}` : ''}`,
    );
    const details = audit.details as { items?: Record<string, unknown>[] } | undefined;
    for (const item of (details?.items ?? []).slice(0, 5)) {
      const node = item.node as { snippet?: string; explanation?: string } | undefined;
      const text = [
        node?.snippet,
        node?.explanation,
        item.url,
        item.description,
        typeof item.wastedMs === 'number' && `wasted ${item.wastedMs} ms`,
      ]
        .filter((part): part is string | number => typeof part === 'string' || typeof part === 'number')
        .map((part) => String(part).replace(/\s+/g, ' '))
        .join(' | ');
      if (text) lines.push(`      - ${text.slice(0, 400)}`);
    }
  }
  return lines;
}

/** Audits that failed to run (Lighthouse errors, e.g. a trace it cannot read): none may carry weight unnoticed. */
function erroredAudits(lhr: Result): string[] {
  return Object.values(lhr.audits)
    .filter((audit) => audit.scoreDisplayMode === 'error')
    .map((audit) => {
      const weighted = Object.values(lhr.categories).some((category) =>
        category.auditRefs.some((ref) => ref.id === audit.id && ref.weight > 0),
      );
      return `${audit.id}${weighted ? ' (WEIGHTED: its category score is null, printed as 0)' : ''}: ${audit.errorMessage ?? ''}`;
    });
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((_, column) => Math.max(...[header, ...rows].map((row) => row[column].length)));
  return [header, ...rows]
    .map((row) =>
      row.map((cell, column) => (column < 2 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  '),
    )
    .join('\n');
}

async function main(): Promise<void> {
  const runs = runsOption();
  console.log(
    `Portal benchmark — node ${process.version}, Lighthouse 12 on ${CHROME_PATH} ${CHROME_FLAGS.join(' ')}, ${runs} run(s) per page and preset`,
  );

  const referenceOnly = process.argv.includes('--reference-only');
  const build = referenceOnly ? null : coldBuild();
  // As `npm start` serves it: production mode, compression, /openapi.json beside the portal.
  const openApiDocument = generateOpenApiDocument(routes, loadConfig({ APP_ENV: 'integration' }));
  const app = express();
  app.disable('x-powered-by');
  app.get('/openapi.json', (_request, response) => {
    response.json(openApiDocument);
  });
  app.use(await createPortalHandler({ mode: 'production', projectRoot: root, openApiDocument }));
  const server = await listen(app);
  const chrome = await launch({ chromePath: CHROME_PATH, chromeFlags: CHROME_FLAGS, logLevel: 'silent' });
  const reportDirectory = mkdtempSync(join(tmpdir(), 'portal-lighthouse-'));
  try {
    if (build) await portalPages(server.origin, chrome.port, runs, reportDirectory, build);
    await referencePage(server.origin, chrome.port, openApiDocument, Math.max(runs, 5));
    if (process.argv.includes('--every-route')) await everyRoute(server.origin, chrome.port);
  } finally {
    chrome.kill();
    await server.close();
  }
}

/** The home page, a doc page and the change log against the portal's targets; the cold build's figures. */
async function portalPages(
  origin: string,
  port: number,
  runs: number,
  reportDirectory: string,
  build: ReturnType<typeof coldBuild>,
): Promise<void> {
  const rss = build.peakRssBytes;
  console.log(
    '\nCold portal build: build/ and public/build/ moved aside, .cache/{portal-build,content-v2,index-v5,tmp} removed; node scripts/build-portal.mjs',
  );
  console.log(
    `  wall time ${build.seconds.toFixed(1)} s   peak RSS ${rss ? `${(rss / 1e6).toFixed(0)} MB` : 'n/a (no /usr/bin/time)'}`,
  );
  console.log(
    `\nServed at ${origin}; JavaScript each page executes, as found in its HTML (<script src>, modulepreload):`,
  );
  const fetched = new Map<string, PageFetch>();
  for (const page of PAGES) {
    const result = await fetchPage(origin, page.path);
    fetched.set(page.label, result);
    console.log(`  ${page.label} ${page.path}: ${result.scripts.join(', ') || 'no script'}`);
    console.log(`    JS executed (gzip -9): ${result.jsGzipBytes} bytes (${result.jsRawBytes} bytes uncompressed)`);
  }

  console.log('\nResponse headers (Accept-Encoding: br, gzip):');
  const checks = [...fetched.values()]
    .flatMap((result) => result.checks)
    .filter((check, index, all) => all.findIndex((other) => other.what === check.what) === index);
  for (const check of checks)
    console.log(`  ${verdict(check.ok).replace('MISS', 'FAIL')}  ${check.what}: ${check.detail}`);
  failures += checks.filter((check) => !check.ok).length;

  const rows: string[][] = [];
  const measured = new Map<string, Measured>();
  for (const preset of PRESETS) {
    for (const page of PAGES) {
      const result = await runLighthouse(`${origin}${page.path}`, port, preset.config, runs);
      measured.set(`${page.label}/${preset.label}`, result);
      writeFileSync(join(reportDirectory, `${page.label}-${preset.label}.json`), JSON.stringify(result.lhr));
      const f = figures(result.lhr);
      const lighthouseScripts = f.scriptCount;
      if (lighthouseScripts !== fetched.get(page.label)!.scripts.length) {
        console.log(
          `  note: Lighthouse saw ${lighthouseScripts} script(s) on ${page.path}, the HTML names ${fetched.get(page.label)!.scripts.length}`,
        );
      }
      rows.push([
        page.label,
        preset.label,
        `${f.scores.performance} (${result.runs.join('/')})`,
        String(f.scores.accessibility),
        String(f.scores['best-practices']),
        String(f.scores.seo),
        f.fcp.toFixed(0),
        f.lcp.toFixed(0),
        f.tbt.toFixed(0),
        f.cls.toFixed(3),
        String(f.jsTransfer),
        String(f.jsResource),
        String(f.htmlTransfer),
      ]);
    }
  }
  console.log('\nLighthouse (performance: the median run, all runs in brackets; times in ms; sizes in bytes):');
  console.log(
    table(
      [
        'page',
        'preset',
        'perf (runs)',
        'a11y',
        'best-pr',
        'seo',
        'FCP',
        'LCP',
        'TBT',
        'CLS',
        'JS transfer',
        'JS size',
        'HTML transfer',
      ],
      rows,
    ),
  );
  console.log(`(Lighthouse JSON of each median run: ${reportDirectory})`);
  const errored = [...new Set([...measured.values()].flatMap((result) => erroredAudits(result.lhr)))];
  console.log(
    `Audits Lighthouse could not run (in any median run):${errored.length === 0 ? ' none' : `\n  ${errored.join('\n  ')}`}`,
  );

  console.log('\nAudits that cost points (accessibility, best practices, SEO below 100; mobile performance below 95):');
  let anyLoss = false;
  for (const [key, result] of measured) {
    for (const category of CATEGORIES) {
      const score = Math.round((result.lhr.categories[category].score ?? 0) * 100);
      const threshold = category === 'performance' ? (key.endsWith('/mobile') ? TARGET.performance : 0) : 100;
      if (score >= threshold) continue;
      anyLoss = true;
      console.log(`  ${key} ${category} ${score}:`);
      for (const line of losses(result.lhr, category)) console.log(line);
    }
  }
  if (!anyLoss) console.log('  none');

  const doc = fetched.get('doc')!;
  const home = fetched.get('home')!;
  console.log('\nAgainst the targets (ratio = ours / reference; 1 KB = 1000 bytes):');
  console.log(
    `  JS gzip -9, doc page: ${kb(doc.jsGzipBytes)} = ${ratio(doc.jsGzipBytes, TARGET.docJsGzip)} of the 60 KB target (${verdict(doc.jsGzipBytes <= TARGET.docJsGzip)}), ${ratio(doc.jsGzipBytes, DOCUSAURUS.docJsGzip)} of Docusaurus' 186 KB`,
  );
  console.log(
    `  JS gzip -9, home page: ${kb(home.jsGzipBytes)} = ${ratio(home.jsGzipBytes, DOCUSAURUS.homeJsGzip)} of Docusaurus' 166 KB`,
  );
  for (const page of PAGES) {
    const lhr = measured.get(`${page.label}/mobile`)!.lhr;
    const performanceScore = Math.round((lhr.categories.performance.score ?? 0) * 100);
    // Accessibility on both presets: the layout differs (the desktop one shows the table of contents).
    const accessibility = Math.min(
      ...PRESETS.map((preset) =>
        Math.round((measured.get(`${page.label}/${preset.label}`)!.lhr.categories.accessibility.score ?? 0) * 100),
      ),
    );
    console.log(
      `  ${page.label}: mobile performance ${performanceScore} = ${ratio(performanceScore, TARGET.performance)} of the 95 target (${verdict(performanceScore >= TARGET.performance)}), ` +
        `${ratio(performanceScore, DOCUSAURUS.performance)} of Docusaurus' 91; accessibility (lower of mobile, desktop) ${accessibility} = ${ratio(accessibility, TARGET.accessibility)} of 100 (${verdict(accessibility >= TARGET.accessibility)}), ${ratio(accessibility, DOCUSAURUS.accessibility)} of Docusaurus' 96`,
    );
  }
  console.log(
    `  cold build: ${build.seconds.toFixed(1)} s = ${ratio(build.seconds, TARGET.buildSeconds)} of the 15 s target (${verdict(build.seconds <= TARGET.buildSeconds)}), ${ratio(build.seconds, DOCUSAURUS.buildSeconds)} of Docusaurus' 39 s` +
      (rss
        ? `; peak RSS ${(rss / 1e6).toFixed(0)} MB = ${ratio(rss, DOCUSAURUS.buildRssBytes)} of Docusaurus' 1.2 GB`
        : ''),
  );
  console.log(`  response headers: ${failures === 0 ? 'PASS' : `FAIL (${failures} check(s))`}`);
}

/** The operation a deep link aims at: the last one of the last tag, the farthest down the page. */
function farthestOperationAnchor(document: ReturnType<typeof generateOpenApiDocument>): string {
  const lastTag = document['x-tagGroups'].at(-1)!.tags.at(-1)!;
  const operations = Object.values(document.paths ?? {}).flatMap((item) =>
    Object.values(item as Record<string, { tags?: string[]; operationId?: string }>),
  );
  const last = operations.filter((operation) => operation.tags?.[0] === lastTag).at(-1)!;
  return `tag/${lastTag.replaceAll(' ', '-')}/operation/${last.operationId}`;
}

/** /rest-api against its own targets: median of `runs` Lighthouse runs per preset, and the reader's waits. */
async function referencePage(
  origin: string,
  port: number,
  document: ReturnType<typeof generateOpenApiDocument>,
  runs: number,
): Promise<void> {
  console.log(`\n/rest-api (issues 9 and 41), median of ${runs}:`);
  const html = await (await fetch(`${origin}/rest-api`)).text();
  const htmlGzip = gzipSync(html, { level: 9 }).length;
  const presets = new Map<string, ReturnType<typeof figures>>();
  let scriptUrls: string[] = [];
  for (const preset of PRESETS) {
    const { lhr, runs: scores } = await runLighthouse(`${origin}/rest-api`, port, preset.config, runs);
    presets.set(preset.label, figures(lhr));
    console.log(
      `  Lighthouse ${preset.label}: performance ${Math.round((lhr.categories.performance.score ?? 0) * 100)} (${scores.join('/')}), accessibility ${Math.round((lhr.categories.accessibility.score ?? 0) * 100)}, TBT ${figures(lhr).tbt.toFixed(0)} ms, LCP ${figures(lhr).lcp.toFixed(0)} ms, CLS ${figures(lhr).cls.toFixed(3)}`,
    );
    for (const line of losses(lhr, 'accessibility')) console.log(line);
    const items = (lhr.audits['network-requests']?.details as { items?: NetworkItem[] } | undefined)?.items ?? [];
    scriptUrls = items.filter((item) => item.resourceType === 'Script').map((item) => item.url);
  }
  // Every script the page ran (the entry and the reference's chunk), gzipped here at level 9.
  let jsGzip = 0;
  for (const url of scriptUrls)
    jsGzip += gzipSync(Buffer.from(await (await fetch(url)).arrayBuffer()), { level: 9 }).length;
  const anchor = farthestOperationAnchor(document);
  const desktop = await measureReference(origin, anchor, runs);
  const slowed = await measureReference(origin, anchor, runs, 4);
  const problems = [...desktop, ...slowed].flatMap((run) => [...run.consoleErrors, ...run.outsideRequests]);
  // For scale: the same browser's first paint of a doc page, a fraction of the reference's size.
  const docPaint = await measureFirstPaint(origin, PAGES[1].path, runs);
  const mobile = presets.get('mobile')!;
  const firstOperation = median(desktop.map((run) => run.firstOperationMs));
  const deepLink = median(desktop.map((run) => run.deepLinkSettledMs));
  const deepLinkSlowed = median(slowed.map((run) => run.deepLinkSettledMs));
  const lines = [
    `JS executed (gzip -9, ${scriptUrls.length} scripts): ${kb(jsGzip)} = ${ratio(jsGzip, REFERENCE_TARGET.jsGzip)} of the 100 KB target (${verdict(jsGzip <= REFERENCE_TARGET.jsGzip)}), ${ratio(jsGzip, REDOC.jsGzip)} of Redoc's 519 KB`,
    `HTML (gzip -9): ${kb(htmlGzip)} (${kb(html.length)} raw) = ${ratio(htmlGzip, REFERENCE_TARGET.htmlGzip)} of the 150 KB target (${verdict(htmlGzip <= REFERENCE_TARGET.htmlGzip)})`,
    `mobile TBT ${mobile.tbt.toFixed(0)} ms (target < 200: ${verdict(mobile.tbt < REFERENCE_TARGET.mobileTbtMs)}); mobile performance ${mobile.scores.performance} (target 100: ${verdict(mobile.scores.performance >= REFERENCE_TARGET.mobilePerformance)}; Redoc 70); desktop ${presets.get('desktop')!.scores.performance} (Redoc 76)`,
    `accessibility ${Math.min(...[...presets.values()].map((f) => f.scores.accessibility))} (target 100; Redoc 89)`,
    `first operation painted: ${firstOperation.toFixed(0)} ms (CPU 4x slower: ${median(slowed.map((run) => run.firstOperationMs)).toFixed(0)} ms) (target 250: ${verdict(firstOperation <= REFERENCE_TARGET.firstOperationMs)})`,
    `deep link #${anchor} at its final position: ${deepLink.toFixed(0)} ms (target 400: ${verdict(deepLink <= REFERENCE_TARGET.deepLinkMs)}; Redoc 1800); CPU 4x slower: ${deepLinkSlowed.toFixed(0)} ms (target 1000: ${verdict(deepLinkSlowed <= REFERENCE_TARGET.deepLinkSlowedMs)})`,
    `for scale, a doc page (${PAGES[1].path}) first painted in the same browser: ${docPaint.toFixed(0)} ms`,
    `console errors and requests leaving the server: ${problems.length === 0 ? 'none' : problems.join('; ')}`,
  ];
  for (const line of lines) console.log(`  ${line}`);
}

/** One run per preset on every page the crawl reaches: the lowest scores are what the targets bind. */
async function everyRoute(origin: string, port: number): Promise<void> {
  const { pages } = await crawlPortalLinks(origin, ['/']);
  const routes = pages.filter((path) => path !== '/rest-api').sort();
  console.log(`\nEvery route but /rest-api (${routes.length}), one run per preset: performance and accessibility`);
  const rows: string[][] = [];
  const lowest = { mobilePerformance: 100, accessibility: 100 };
  for (const path of routes) {
    const row = [path];
    for (const preset of PRESETS) {
      const { lhr } = await runLighthouse(`${origin}${path}`, port, preset.config, 1);
      const { scores, cls, tbt } = figures(lhr);
      if (preset.label === 'mobile') lowest.mobilePerformance = Math.min(lowest.mobilePerformance, scores.performance);
      lowest.accessibility = Math.min(lowest.accessibility, scores.accessibility);
      row.push(String(scores.performance), String(scores.accessibility), cls.toFixed(3), tbt.toFixed(0));
    }
    rows.push(row);
  }
  console.log(
    table(
      ['route', '', 'mobile perf', 'a11y', 'CLS', 'TBT', 'desktop perf', 'a11y', 'CLS', 'TBT'],
      rows.map(([path, ...rest]) => [path, '', ...rest]),
    ),
  );
  console.log(
    `  lowest mobile performance ${lowest.mobilePerformance} (target 95: ${verdict(lowest.mobilePerformance >= TARGET.performance)}); ` +
      `lowest accessibility ${lowest.accessibility} (target 100: ${verdict(lowest.accessibility >= TARGET.accessibility)})`,
  );
}

main().then(
  () => {
    process.exitCode = failures > 0 ? 1 : 0;
  },
  (error: unknown) => {
    console.error('bench:portal failed:', error);
    process.exitCode = 1;
  },
);
