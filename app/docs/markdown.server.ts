import { toString } from 'hast-util-to-string';
import rehypeSlug from 'rehype-slug';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { SKIP, visit } from 'unist-util-visit';
import { parse as parseYaml } from 'yaml';
import { rehypeCodeTabs } from './codeTabs.server.js';

/** What a docs page's front matter holds. */
export interface FrontMatter {
  title: string;
  description: string;
  sidebar_label: string;
  sidebar_position: number;
}

/** One entry of a page's table of contents: headings of levels 2 and 3, with their anchors. */
export interface TocEntry {
  depth: 2 | 3;
  id: string;
  text: string;
}

export interface RenderedPage {
  frontMatter: FrontMatter;
  html: string;
  toc: TocEntry[];
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/;

export function splitFrontMatter(source: string, file: string): { frontMatter: FrontMatter; body: string } {
  const match = FRONT_MATTER.exec(source);
  if (!match) throw new Error(`${file}: no front matter`);
  const data = parseYaml(match[1]) as Partial<FrontMatter>;
  for (const key of ['title', 'description', 'sidebar_label'] as const) {
    if (typeof data[key] !== 'string' || data[key] === '') throw new Error(`${file}: front matter needs ${key}`);
  }
  if (!Number.isInteger(data.sidebar_position))
    throw new Error(`${file}: front matter needs an integer sidebar_position`);
  return { frontMatter: data as FrontMatter, body: source.slice(match[0].length) };
}

/** The hast types of the unified packages (another copy of @types/hast sits at the top of node_modules). */
type HastNode = Parameters<typeof toString>[0];
type HastElement = Extract<HastNode, { type: 'element' }>;

/** Gives every heading a visible anchor link to itself, and collects levels 2 and 3 for the table of contents. */
function anchorsAndToc(toc: TocEntry[]) {
  return () => (tree: HastNode) => {
    visit(tree, 'element', (node: HastElement) => {
      const level = /^h([1-6])$/.exec(node.tagName)?.[1];
      const id = node.properties?.id;
      if (!level || typeof id !== 'string') return;
      const text = toString(node);
      if (level === '2' || level === '3') toc.push({ depth: Number(level) as 2 | 3, id, text });
      node.children.push({
        type: 'element',
        tagName: 'a',
        properties: { className: ['anchor'], href: `#${id}`, ariaLabel: `Direct link to ${text}` },
        children: [{ type: 'text', value: '#' }],
      });
    });
  };
}

/**
 * Code blocks scroll sideways when a line is long; a keyboard user must be able to focus one to
 * scroll it (WCAG 2.1.1), so every block is focusable.
 */
function focusableCodeBlocks() {
  return (tree: HastNode) => {
    visit(tree, 'element', (node: HastElement) => {
      if (node.tagName === 'pre') node.properties = { ...node.properties, tabIndex: 0 };
    });
  };
}

/**
 * A table wider than a phone's screen (a catalogue of test data, a table of states and answers)
 * scrolls inside a box of its own rather than making the whole page scroll sideways; like a code
 * block, the box is focusable so that a keyboard user can scroll it.
 */
function scrollableTables() {
  return (tree: HastNode) => {
    visit(tree, 'element', (node: HastElement, index, parent) => {
      if (node.tagName !== 'table' || !parent || index === undefined) return;
      parent.children[index] = {
        type: 'element',
        tagName: 'div',
        properties: { className: ['table-scroll'], tabIndex: 0 },
        children: [node],
      };
      return SKIP;
    });
  };
}

/**
 * A docs page from its Markdown: front matter, HTML (headings anchored, GitHub-flavoured, consecutive
 * fenced blocks labelled `tab="..."` grouped as code samples: see codeTabs.server.ts), table of contents.
 */
export function renderMarkdown(source: string, file: string): RenderedPage {
  const { frontMatter, body } = splitFrontMatter(source, file);
  const toc: TocEntry[] = [];
  const html = unified()
    .use(remarkParse)
    .use(remarkGfm)
    .use(remarkRehype)
    .use(rehypeSlug)
    .use(rehypeCodeTabs)
    .use(focusableCodeBlocks)
    .use(scrollableTables)
    .use(anchorsAndToc(toc))
    .use(rehypeStringify)
    .processSync(body)
    .toString();
  return { frontMatter, html, toc };
}
