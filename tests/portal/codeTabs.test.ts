import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDocsCatalogue } from '../../app/docs/catalogue.server.js';
import { renderMarkdown } from '../../app/docs/markdown.server.js';
import { testDocsAddresses } from './testPortal.js';

const frontMatter = '---\ntitle: A page\ndescription: What it says.\nsidebar_label: Page\nsidebar_position: 1\n---\n';

function render(body: string): string {
  return renderMarkdown(`${frontMatter}${body}`, 'page.md').html;
}

/** The `<div class="code-tabs">` elements of a page, each whole (to its matching `</div>`). */
function codeTabGroups(html: string): string[] {
  const groups: string[] = [];
  const opening = '<div class="code-tabs"';
  let start = html.indexOf(opening);
  while (start !== -1) {
    const tags = /<div\b|<\/div>/g;
    tags.lastIndex = start;
    let depth = 0;
    let end = -1;
    for (let tag = tags.exec(html); tag; tag = tags.exec(html)) {
      depth += tag[0] === '</div>' ? -1 : 1;
      if (depth === 0) {
        end = tag.index + tag[0].length;
        break;
      }
    }
    if (end === -1) throw new Error('unbalanced <div> in a code-tabs group');
    groups.push(html.slice(start, end));
    start = html.indexOf(opening, end);
  }
  return groups;
}

function labelsOf(group: string): string[] {
  return [
    ...group.matchAll(
      /<div class="code-tabs__panel"[^>]*data-tab-label="([^"]*)"[^>]*><p class="code-tabs__label"[^>]*>([^<]*)<\/p>/g,
    ),
  ].map(([, dataLabel, visibleLabel]) => {
    expect(visibleLabel).toBe(dataLabel);
    return dataLabel;
  });
}

function idsOf(html: string): string[] {
  return [...html.matchAll(/\sid="([^"]+)"/g)].map((match) => match[1]);
}

const threeSamples = [
  '```bash tab="curl"',
  'curl -H "Authorization: Bearer $API_KEY" "$HOST/x"',
  '```',
  '',
  "```js tab='JavaScript'",
  'await fetch(`${HOST}/x`);',
  '```',
  '```python title="x.py" tab=Python',
  'requests.get(f"{HOST}/x")',
  '```',
  '',
].join('\n');

describe('code samples in tabs', () => {
  it('groups consecutive labelled blocks into one group, the samples in order, each under its label', () => {
    const html = render(`Intro.\n\n${threeSamples}\nAfter.\n`);
    const groups = codeTabGroups(html);
    expect(groups).toHaveLength(1);
    const tab = (index: number, label: string) =>
      `<button type="button" class="code-tabs__tab" id="code-tabs-1-panel-${index}-tab" role="tab" aria-controls="code-tabs-1-panel-${index}" ` +
      `aria-selected="${index === 1}" tabindex="${index === 1 ? 0 : -1}" data-tab-label="${label}">${label}</button>`;
    const panel = (index: number, label: string, code: string) =>
      `<div class="code-tabs__panel" id="code-tabs-1-panel-${index}" data-tab-label="${label}" role="tabpanel" aria-labelledby="code-tabs-1-panel-${index}-tab"${index > 1 ? ' hidden' : ''}>` +
      `<p class="code-tabs__label" id="code-tabs-1-label-${index}" hidden>${label}</p>${code}</div>`;
    // Rendered as tabs on the server (the first sample shown), so wiring them moves nothing on the page.
    expect(groups[0]).toBe(
      '<div class="code-tabs" id="code-tabs-1">' +
        '<div class="code-tabs__tablist" role="tablist" aria-label="Code samples">' +
        tab(1, 'curl') +
        tab(2, 'JavaScript') +
        tab(3, 'Python') +
        '</div>' +
        panel(
          1,
          'curl',
          '<pre tabindex="0"><code class="language-bash">curl -H "Authorization: Bearer $API_KEY" "$HOST/x"\n</code></pre>',
        ) +
        panel(2, 'JavaScript', '<pre tabindex="0"><code class="language-js">await fetch(`${HOST}/x`);\n</code></pre>') +
        panel(3, 'Python', '<pre tabindex="0"><code class="language-python">requests.get(f"{HOST}/x")\n</code></pre>') +
        '</div>',
    );
    expect(labelsOf(groups[0])).toEqual(['curl', 'JavaScript', 'Python']);
    expect(html).toMatch(/^<p>Intro\.<\/p>\n<div class="code-tabs"/);
    expect(html).toMatch(/<\/div>\n<p>After\.<\/p>$/);
  });

  it('leaves a lone labelled block and unlabelled blocks as ordinary blocks', () => {
    const html = render(
      [
        '```sh tab="curl"',
        'curl /alone',
        '```',
        '',
        'Between.',
        '',
        '```js tab="JavaScript"',
        'alone();',
        '```',
        '',
        '```sh',
        'echo one',
        '```',
        '```json',
        '{"two": 2}',
        '```',
        '',
        '```python tab="Python"',
        'followed_by_an_unlabelled_block()',
        '```',
        '```',
        'plain',
        '```',
        '',
      ].join('\n'),
    );
    expect(codeTabGroups(html)).toEqual([]);
    expect(html).not.toContain('code-tabs');
    expect(html).toContain('<pre tabindex="0"><code class="language-sh">curl /alone\n</code></pre>');
    expect(html).toContain('<pre tabindex="0"><code class="language-js">alone();\n</code></pre>');
    expect(html).toContain(
      '<pre tabindex="0"><code class="language-sh">echo one\n</code></pre>\n<pre tabindex="0"><code class="language-json">{"two": 2}\n</code></pre>',
    );
    expect(html).toContain(
      '<pre tabindex="0"><code class="language-python">followed_by_an_unlabelled_block()\n</code></pre>\n<pre tabindex="0"><code>plain\n</code></pre>',
    );
  });

  it('groups labelled blocks inside a list item too', () => {
    const html = render(
      '- Step:\n\n  ```sh tab="curl"\n  curl /x\n  ```\n\n  ```js tab="JavaScript"\n  fetch("/x");\n  ```\n',
    );
    const groups = codeTabGroups(html);
    expect(groups).toHaveLength(1);
    expect(labelsOf(groups[0])).toEqual(['curl', 'JavaScript']);
    expect(html).toMatch(/<li>[\s\S]*<div class="code-tabs"[\s\S]*<\/li>/);
  });

  it('gives the groups of a page unique ids, numbered in order, that no heading already has, and the same on every render', () => {
    const source = `## Code tabs 1\n\n${threeSamples}\n## Second\n\n${threeSamples}`;
    const html = render(source);
    const groups = codeTabGroups(html);
    expect(groups).toHaveLength(2);
    expect(groups.map((group) => /^<div class="code-tabs" id="([^"]+)"/.exec(group)?.[1])).toEqual([
      'code-tabs-2',
      'code-tabs-3',
    ]);
    const ids = idsOf(html);
    expect(ids).toContain('code-tabs-1');
    expect(new Set(ids).size).toBe(ids.length);
    for (const group of groups) {
      // Every panel is labelled by a label of its own group.
      for (const [, panelId, labelId] of group.matchAll(
        /class="code-tabs__panel" id="([^"]+)"[^>]*aria-labelledby="([^"]+)"/g,
      )) {
        expect(idsOf(group)).toContain(labelId);
        expect(panelId.startsWith(/id="([^"]+)"/.exec(group)![1])).toBe(true);
      }
    }
    expect(render(source)).toBe(html);
  });
});

describe('the docs’ code samples', () => {
  const catalogue = loadDocsCatalogue(join(process.cwd(), 'docs/pages'), testDocsAddresses);
  const pages = [...catalogue.pages.entries(), ['change-logs', catalogue.changeLog] as const];

  /** The languages a group may offer, in the order its tabs come. */
  const LANGUAGES = ['curl', 'JavaScript', 'Python', 'PHP'];

  it('are grouped in one order (curl, JavaScript, Python, PHP), each tab once, wherever there is a group', () => {
    let count = 0;
    for (const [path, page] of pages) {
      for (const group of codeTabGroups(page.html)) {
        const labels = labelsOf(group);
        expect(labels.length, path).toBeGreaterThanOrEqual(2);
        expect(new Set(labels).size, path).toBe(labels.length);
        // Other tabs (a framework's handler: Express, Flask) may sit among them.
        expect(
          labels.filter((label) => LANGUAGES.includes(label)),
          path,
        ).toEqual(LANGUAGES.filter((language) => labels.includes(language)));
        count += 1;
      }
    }
    expect(count).toBeGreaterThanOrEqual(14);
  });

  // A walk-through may show its intermediate steps in curl alone (every one of them is executed by
  // tests/docs/samples.test.ts); a page with requests shows at least one in the three languages.
  it('show the requests of every page that has some in curl, JavaScript and Python at least once', () => {
    const withRequests: string[] = [];
    for (const [path, page] of pages) {
      if (!/<code class="language-sh">[^<]*\bcurl\s/.test(page.html)) continue;
      withRequests.push(path);
      const complete = codeTabGroups(page.html).filter(
        (group) =>
          /\bcurl\s/.test(group) &&
          ['curl', 'JavaScript', 'Python'].every((language) => labelsOf(group).includes(language)),
      );
      expect(complete.length, path).toBeGreaterThanOrEqual(1);
    }
    expect(withRequests.length).toBeGreaterThanOrEqual(12);
  });
});
