import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { LoaderFunctionArgs } from '@remix-run/node';
import { afterAll, describe, expect, it } from 'vitest';
import { SEARCH_INDEX_ADDRESSES } from '../../app/docs/addresses.server.js';
import { loadDocsCatalogue } from '../../app/docs/catalogue.server.js';
import { loader } from '../../app/routes/search.js';
import {
  type SearchIndex,
  type SearchResult,
  buildSearchIndex,
  searchDocs,
  searchSections,
} from '../../app/search/searchIndex.js';
import { readBuiltSearchIndex, searchEntries, writeSearchIndex } from '../../app/search/searchIndex.server.js';
import { ensurePortalBuilt } from './ensureBuilt.js';

const anchor = (id: string, text: string) =>
  `<a class="anchor" href="#${id}" aria-label="Direct link to ${text}">#</a>`;

/** What a result highlights, as text. */
const highlighted = (result: SearchResult) => result.matches.map(([start, end]) => result.snippet.slice(start, end));

describe('buildSearchIndex', () => {
  const html = [
    '<p>Intro with &amp; ampersand, &lt;tag&gt; and <code>inline</code> code.</p>',
    `<h2 id="first-part">First &quot;part&quot;${anchor('first-part', 'First &quot;part&quot;')}</h2>`,
    '<p>Body: it&#x27;s &#39;quoted&#39;, &#233;t&#xE9; &#x1F600; and <strong>bold</strong>text.</p>',
    `<h3 id="sub-part">Sub <code>part</code>${anchor('sub-part', 'Sub part')}</h3>`,
    '<ul>\n<li>one</li>\n<li>two</li>\n</ul>',
    `<h4 id="deep">Deep${anchor('deep', 'Deep')}</h4>`,
    '<p>still   in\n the sub part</p>',
    `<h2 id="table">Table${anchor('table', 'Table')}</h2>`,
    '<table><tr><td>a</td><td>b</td></tr></table>',
  ].join('\n');

  it('splits a page into its intro and one section per h2 and h3, as plain text', () => {
    const index = buildSearchIndex([
      { url: '/docs/page', title: 'The page', html },
      {
        url: '/change-logs',
        title: 'Change logs',
        html: `<h2 id="only">Only${anchor('only', 'Only')}</h2><p>Text.</p>`,
      },
    ]);
    expect(searchSections(index)).toEqual([
      {
        url: '/docs/page',
        pageTitle: 'The page',
        heading: null,
        text: 'Intro with & ampersand, <tag> and inline code.',
      },
      {
        url: '/docs/page#first-part',
        pageTitle: 'The page',
        heading: 'First "part"',
        text: "Body: it's 'quoted', été 😀 and boldtext.",
      },
      {
        url: '/docs/page#sub-part',
        pageTitle: 'The page',
        heading: 'Sub part',
        text: 'one two Deep still in the sub part',
      },
      { url: '/docs/page#table', pageTitle: 'The page', heading: 'Table', text: 'a b' },
      { url: '/change-logs', pageTitle: 'Change logs', heading: null, text: '' },
      { url: '/change-logs#only', pageTitle: 'Change logs', heading: 'Only', text: 'Text.' },
    ]);
  });

  it('is compact JSON that survives a round trip', () => {
    const index = buildSearchIndex([{ url: '/docs/page', title: 'The page', html }]);
    const json = JSON.stringify(index);
    expect(JSON.parse(json)).toEqual(index);
    // Each page's URL and title once, not once per section.
    expect(json.split('The page').length - 1).toBe(1);
  });

  it('cuts very long sections at a word', () => {
    const words = Array.from({ length: 1000 }, (_, i) => `word${i}`).join(' ');
    const [[, , , text]] = buildSearchIndex([{ url: '/x', title: 'X', html: `<p>${words}</p>` }]).s;
    expect(text.length).toBeLessThanOrEqual(2000);
    expect(text.length).toBeGreaterThan(1500);
    expect(words.startsWith(text)).toBe(true);
    expect(words[text.length]).toBe(' ');
  });
});

describe('searchDocs', () => {
  const long = Array.from({ length: 80 }, (_, i) => `filler${i}`).join(' ');
  const index: SearchIndex = buildSearchIndex([
    {
      url: '/docs/countermarks',
      title: 'Countermarks management',
      html: `<p>Every booking has a token.</p><h2 id="statuses">Booking statuses${anchor('statuses', 'Booking statuses')}</h2><p>Confirmed or used.</p>`,
    },
    {
      url: '/docs/auth',
      title: 'Authentication',
      html: `<p>Keys and tokens.</p><h2 id="countermark-format">Countermark format${anchor('countermark-format', 'Countermark format')}</h2><p>Six characters.</p>`,
    },
    {
      url: '/docs/messages',
      title: 'Messaging',
      html: `<p>Every message names the countermark of its booking.</p><h2 id="long">Long${anchor('long', 'Long')}</h2><p>${long} an Événement créé here ${long}</p>`,
    },
  ]);
  const urls = (results: SearchResult[]) => results.map((result) => result.url);

  it('ranks heading matches, then page titles, then the text, then sections matched by their page title alone', () => {
    expect(urls(searchDocs(index, 'countermark'))).toEqual([
      '/docs/auth#countermark-format',
      '/docs/countermarks',
      '/docs/messages',
      '/docs/countermarks#statuses',
    ]);
  });

  it('requires every word, each at the start of a word, the last one possibly unfinished', () => {
    expect(urls(searchDocs(index, 'booking token'))).toEqual(['/docs/countermarks']);
    expect(urls(searchDocs(index, 'counterm'))).toHaveLength(4);
    expect(urls(searchDocs(index, 'COUNTERMARK STATUS'))).toEqual(['/docs/countermarks#statuses']);
    expect(searchDocs(index, 'ountermark')).toEqual([]);
    expect(searchDocs(index, 'booking nonexistent')).toEqual([]);
  });

  it('ignores case and accents, in the query and in the text', () => {
    const cases: [string, string[]][] = [
      ['evenement cree', ['Événement', 'créé']],
      ['ÉVÉNEMENT CRÉÉ', ['Événement', 'créé']],
      ['événem', ['Événem']],
    ];
    for (const [query, marked] of cases) {
      const [result, ...others] = searchDocs(index, query);
      expect(others, query).toEqual([]);
      expect(result.url, query).toBe('/docs/messages#long');
      expect(highlighted(result), query).toEqual(marked);
    }
  });

  it('shows a window of the text around the first match, with its matches highlighted', () => {
    const [result] = searchDocs(index, 'créé');
    expect(result.heading).toBe('Long');
    expect(result.pageTitle).toBe('Messaging');
    expect(result.snippet.startsWith('…')).toBe(true);
    expect(result.snippet.endsWith('…')).toBe(true);
    expect(result.snippet.length).toBeLessThanOrEqual(162);
    expect(result.snippet).toContain('an Événement créé here');
    expect(result.matches).toHaveLength(1);
    expect(highlighted(result)).toEqual(['créé']);
    // The window starts at a word.
    expect(result.snippet).toMatch(/^…filler\d+ /);

    const [intro] = searchDocs(index, 'names count');
    expect(intro.snippet).toBe('Every message names the countermark of its booking.');
    expect(intro.matches).toEqual([
      [14, 19],
      [24, 29],
    ]);
    expect(highlighted(intro)).toEqual(['names', 'count']);
  });

  it('merges overlapping highlights', () => {
    const [result] = searchDocs(index, 'count countermark');
    expect(result.url).toBe('/docs/auth#countermark-format');
    const [body] = searchDocs(index, 'count countermark messag');
    expect(body.url).toBe('/docs/messages');
    expect(highlighted(body)).toEqual(['messag', 'countermark']);
  });

  it('answers nothing for a blank query, and at most `limit` results', () => {
    for (const query of ['', '   ', '!?', '—']) expect(searchDocs(index, query), query).toEqual([]);
    expect(searchDocs(index, 'countermark', 2)).toHaveLength(2);
    expect(searchDocs(index, 'countermark', 0)).toEqual([]);
  });
});

describe('the index of the real docs', () => {
  const pagesDirectory = join(process.cwd(), 'docs', 'pages');
  const catalogue = loadDocsCatalogue(pagesDirectory, SEARCH_INDEX_ADDRESSES);
  const entries = searchEntries(catalogue);
  const index = buildSearchIndex(entries);
  const pageHtml = new Map(entries.map((entry) => [entry.url, entry.html]));
  const countermarks = '/docs/understanding-our-api/managing-bookings/countermarks-management';
  const temporary: string[] = [];

  afterAll(() => {
    for (const directory of temporary) rmSync(directory, { recursive: true, force: true });
  });

  it('covers the /docs landing, every doc page and the change log', () => {
    expect(entries[0].url).toBe('/docs');
    expect(entries.at(-1)!.url).toBe('/change-logs');
    expect(entries).toHaveLength(catalogue.pages.size + 1);
    for (const path of catalogue.pages.keys()) expect(pageHtml.has(path ? `/docs/${path}` : '/docs'), path).toBe(true);
  });

  it('has one section per heading of levels 2 and 3, each anchor on its page, no heading ending in "#"', () => {
    const sections = searchSections(index);
    const tocSize = [...catalogue.pages.values(), catalogue.changeLog].reduce((sum, page) => sum + page.toc.length, 0);
    expect(sections).toHaveLength(entries.length + tocSize);
    for (const section of sections) {
      const [page, id] = section.url.split('#');
      expect(pageHtml.has(page), section.url).toBe(true);
      if (id === undefined) continue;
      expect(pageHtml.get(page), section.url).toContain(`id="${id}"`);
      expect(section.heading, section.url).not.toMatch(/#$/);
    }
  });

  it('finds "countermark" on the countermarks page, with the heading of the matching section', () => {
    const results = searchDocs(index, 'countermark', 20);
    const onPage = results.filter((result) => result.url.split('#')[0] === countermarks);
    expect(onPage.length).toBeGreaterThan(0);
    const toc = catalogue.pages.get('understanding-our-api/managing-bookings/countermarks-management')!.toc;
    const withHeading = onPage.filter((result) => result.heading !== null);
    expect(withHeading.length).toBeGreaterThan(0);
    for (const result of withHeading) {
      expect(toc.find((entry) => `${countermarks}#${entry.id}` === result.url)?.text).toBe(result.heading);
    }
    for (const result of results) {
      const [page, id] = result.url.split('#');
      if (id !== undefined) expect(pageHtml.get(page), result.url).toContain(`id="${id}"`);
      for (const text of highlighted(result)) expect(text.toLowerCase(), result.url).toMatch(/^countermark/);
    }
  });

  it('is written under a content hash, stale indexes removed', () => {
    const outDir = join(mkdtempSync(join(tmpdir(), 'search-index-')), 'search');
    temporary.push(outDir);
    const first = writeSearchIndex(pagesDirectory, outDir);
    const name = basename(first.file);
    expect(name).toMatch(/^search-index-[0-9a-f]{8}\.json$/);
    expect(first.url).toBe(`/build/search/${name}`);
    const json = readFileSync(first.file, 'utf8');
    expect(name).toBe(`search-index-${createHash('sha256').update(json).digest('hex').slice(0, 8)}.json`);
    expect(JSON.parse(json)).toEqual(index);

    const stale = join(outDir, 'search-index-00000000.json');
    writeFileSync(stale, '{}');
    expect(writeSearchIndex(pagesDirectory, outDir)).toEqual(first);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(first.file)).toBe(true);
  });
});

describe('the /search route', () => {
  // The route reads the index the build wrote for the browser, by the URL the portal's assets give.
  const projectRoot = ensurePortalBuilt();
  const assets = JSON.parse(readFileSync(join(projectRoot, 'build', 'portal-assets.json'), 'utf8')) as {
    searchIndex: string;
  };
  const load = async (search: string) =>
    await loader({
      request: new Request(`http://localhost/search${search}`),
      params: {},
      context: { portal: { assets } },
    } as unknown as LoaderFunctionArgs);

  it('searches the index the browser downloads, the same results as one built from the docs', async () => {
    const built = JSON.parse(readFileSync(join(projectRoot, 'public', assets.searchIndex), 'utf8')) as SearchIndex;
    const fromDocs = buildSearchIndex(searchEntries(loadDocsCatalogue(join('docs', 'pages'), SEARCH_INDEX_ADDRESSES)));
    expect(built).toEqual(fromDocs);
    // Read from the build's file (building it again took a fresh server's first search 1.5 s).
    expect(readBuiltSearchIndex(assets.searchIndex)).toEqual(built);
    expect(readBuiltSearchIndex('/build/search/search-index-00000000.json')).toBeNull();
    for (const q of ['countermark', 'idempotency key', 'webhook']) {
      expect((await load(`?q=${encodeURIComponent(q)}`)).results).toEqual(searchDocs(built, q, 20));
    }
  });

  it('answers the results of a query', async () => {
    const { q, results } = await load('?q=%20countermark%20');
    expect(q).toBe('countermark');
    expect(results.length).toBeGreaterThan(1);
    expect(results.length).toBeLessThanOrEqual(20);
    expect(
      results.some((result) =>
        result.url.startsWith('/docs/understanding-our-api/managing-bookings/countermarks-management'),
      ),
    ).toBe(true);
  });

  it('answers no results for gibberish, and none without a query', async () => {
    expect(await load('?q=qzxqzvw')).toEqual({ q: 'qzxqzvw', results: [] });
    expect(await load('')).toEqual({ q: '', results: [] });
    expect(await load('?q=%20%20')).toEqual({ q: '', results: [] });
  });

  it('reads at most 200 characters of the query', async () => {
    const { q } = await load(`?q=${'a'.repeat(500)}`);
    expect(q).toHaveLength(200);
  });
});
