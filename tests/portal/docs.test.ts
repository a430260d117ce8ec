import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type DocsCatalogue, loadDocsCatalogue } from '../../app/docs/catalogue.server.js';
import { brokenLinks } from '../../app/docs/links.server.js';
import { renderMarkdown } from '../../app/docs/markdown.server.js';
import { allCategories, allDocPaths } from '../../app/docs/sidebar.js';
import { routes } from '../../rest-facade/index.js';
import { findProjectRoot } from '../../server/portal.js';
import { testDocsAddresses } from './testPortal.js';

const frontMatter = '---\ntitle: A page\ndescription: What it says.\nsidebar_label: Page\nsidebar_position: 1\n---\n';

describe('docs Markdown', () => {
  it('reads the front matter, anchors every heading and lists levels 2 and 3 in the table of contents', () => {
    const page = renderMarkdown(
      `${frontMatter}Intro.\n\n## First step\n\n### In detail\n\n#### Deeper\n\n## Second step\n`,
      'page.md',
    );
    expect(page.frontMatter).toEqual({
      title: 'A page',
      description: 'What it says.',
      sidebar_label: 'Page',
      sidebar_position: 1,
    });
    expect(page.toc).toEqual([
      { depth: 2, id: 'first-step', text: 'First step' },
      { depth: 3, id: 'in-detail', text: 'In detail' },
      { depth: 2, id: 'second-step', text: 'Second step' },
    ]);
    expect(page.html).toContain(
      '<h2 id="first-step">First step<a class="anchor" href="#first-step" aria-label="Direct link to First step">#</a></h2>',
    );
    expect(page.html).toContain('<h4 id="deeper">');
  });

  it('renders GitHub-flavoured tables (in a focusable box that scrolls on a phone) and fenced code with its language', () => {
    const page = renderMarkdown(
      `${frontMatter}| a | b |\n|---|---|\n| 1 | 2 |\n\n\`\`\`sh\ncurl -i /x\n\`\`\`\n`,
      'page.md',
    );
    expect(page.html).toContain('<div class="table-scroll" tabindex="0"><table>');
    expect(page.html).toContain('<code class="language-sh">curl -i /x\n</code>');
  });

  it('refuses a page without front matter or with an incomplete one', () => {
    expect(() => renderMarkdown('## No front matter\n', 'bare.md')).toThrow('bare.md: no front matter');
    expect(() => renderMarkdown('---\ntitle: T\n---\nbody', 'half.md')).toThrow(
      'half.md: front matter needs description',
    );
  });
});

describe('the docs of the portal', () => {
  let catalogue: DocsCatalogue;
  beforeAll(() => {
    catalogue = loadDocsCatalogue(join(findProjectRoot(), 'docs', 'pages'), testDocsAddresses);
  });

  it('has every page of the sidebar, the /docs landing and the change log, each with a table of contents', () => {
    expect(allDocPaths()).toHaveLength(26);
    expect(
      allCategories()
        .map((category) => category.slug)
        .sort(),
    ).toEqual([
      'api-resources',
      'booking-management',
      'integration-environment',
      'mandatory-steps',
      'messaging-system',
      'self-hosting',
      'tutorials',
      'understanding-our-api',
    ]);
    for (const path of allDocPaths()) {
      const page = catalogue.pages.get(path)!;
      expect(page.toc.filter((entry) => entry.depth === 2).length, path).toBeGreaterThanOrEqual(2);
      expect(page.html, path).not.toMatch(/<h1/);
    }
  });

  it('has no broken internal link or anchor, reference deep links included', () => {
    const referenceAnchors = new Set(
      routes.flatMap((route) => {
        const tag = `tag/${route.tag.replaceAll(' ', '-')}`;
        return [tag, `${tag}/operation/${route.operationId}`];
      }),
    );
    expect(brokenLinks(catalogue, referenceAnchors)).toEqual([]);
  });
});
