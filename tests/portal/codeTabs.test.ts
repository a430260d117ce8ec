import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDocsCatalogue } from '../../app/docs/catalogue.server.js';
import { renderMarkdown } from '../../app/docs/markdown.server.js';

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
  return [...group.matchAll(/<div class="code-tabs__panel"[^>]*data-tab-label="([^"]*)"[^>]*><p class="code-tabs__label"[^>]*>([^<]*)<\/p>/g)].map(
    ([, dataLabel, visibleLabel]) => {
      expect(visibleLabel).toBe(dataLabel);
      return dataLabel;
    },
  );
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
        panel(1, 'curl', '<pre tabindex="0"><code class="language-bash">curl -H "Authorization: Bearer $API_KEY" "$HOST/x"\n</code></pre>') +
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
    expect(html).toContain('<pre tabindex="0"><code class="language-sh">echo one\n</code></pre>\n<pre tabindex="0"><code class="language-json">{"two": 2}\n</code></pre>');
    expect(html).toContain('<pre tabindex="0"><code class="language-python">followed_by_an_unlabelled_block()\n</code></pre>\n<pre tabindex="0"><code>plain\n</code></pre>');
  });

  it('groups labelled blocks inside a list item too', () => {
    const html = render('- Step:\n\n  ```sh tab="curl"\n  curl /x\n  ```\n\n  ```js tab="JavaScript"\n  fetch("/x");\n  ```\n');
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
    expect(groups.map((group) => /^<div class="code-tabs" id="([^"]+)"/.exec(group)?.[1])).toEqual(['code-tabs-2', 'code-tabs-3']);
    const ids = idsOf(html);
    expect(ids).toContain('code-tabs-1');
    expect(new Set(ids).size).toBe(ids.length);
    for (const group of groups) {
      // Every panel is labelled by a label of its own group.
      for (const [, panelId, labelId] of group.matchAll(/class="code-tabs__panel" id="([^"]+)"[^>]*aria-labelledby="([^"]+)"/g)) {
        expect(idsOf(group)).toContain(labelId);
        expect(panelId.startsWith(/id="([^"]+)"/.exec(group)![1])).toBe(true);
      }
    }
    expect(render(source)).toBe(html);
  });
});

describe('the docs’ code samples', () => {
  const catalogue = loadDocsCatalogue(join(process.cwd(), 'docs/pages'));
  const pages = [...catalogue.pages.entries(), ['change-logs', catalogue.changeLog] as const];

  it('are grouped as curl, JavaScript, Python, in that order, wherever there is a group', () => {
    let count = 0;
    for (const [path, page] of pages) {
      for (const group of codeTabGroups(page.html)) {
        expect(labelsOf(group), path).toEqual(['curl', 'JavaScript', 'Python']);
        count += 1;
      }
    }
    expect(count).toBeGreaterThanOrEqual(14);
  });

  it('show every curl request inside a group, with its JavaScript and Python', () => {
    const withTabs: string[] = [];
    for (const [path, page] of pages) {
      const groups = codeTabGroups(page.html);
      let outside = page.html;
      for (const group of groups) outside = outside.replace(group, '');
      const blocksWithCurl = [...outside.matchAll(/<pre[^>]*>[\s\S]*?<\/pre>/g)].filter(([block]) => /\bcurl\s/.test(block));
      expect(blocksWithCurl, path).toEqual([]);
      if (groups.some((group) => /\bcurl\s/.test(group))) withTabs.push(path);
    }
    expect(withTabs.sort()).toEqual([
      'integrations/adage_mocks',
      'integrations/test-data',
      'mandatory-steps/create-test-accounts',
      'mandatory-steps/request-a-provider-account',
      'tutorials/create-a-collective-offer',
      'tutorials/create-an-event-linked-to-an-external-ticketing-systems',
      'understanding-our-api/authentication-authorization',
      'understanding-our-api/managing-bookings/countermarks-management',
      'understanding-our-api/messaging-system/setting-up-messaging',
      'understanding-our-api/resources/cursor-pagination',
    ]);
  });
});
