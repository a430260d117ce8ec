import type { toString } from 'hast-util-to-string';
import { visit } from 'unist-util-visit';

/** The hast types of the unified packages (another copy of @types/hast sits at the top of node_modules). */
type HastNode = Parameters<typeof toString>[0];
type HastRoot = Extract<HastNode, { type: 'root' }>;
type HastElement = Extract<HastNode, { type: 'element' }>;
type HastChild = HastRoot['children'][number];
type HastParent = HastRoot | HastElement;

const TAB_LABEL = /(?:^|\s)tab=(?:"([^"]*)"|'([^']*)'|([^\s"']+))/;

/**
 * The `tab="Label"` of a fenced block's info string. remark keeps what follows the language in the
 * mdast `code` node's `meta`, and mdast-util-to-hast 13 hands it on as `data.meta` of the `<code>`
 * element inside the `<pre>`.
 */
export function tabLabelOf(node: HastChild): string | null {
  if (node.type !== 'element' || node.tagName !== 'pre') return null;
  const code = node.children.find((child): child is HastElement => child.type === 'element' && child.tagName === 'code');
  const meta = (code?.data as { meta?: unknown } | undefined)?.meta;
  if (typeof meta !== 'string') return null;
  const match = TAB_LABEL.exec(meta);
  const label = (match?.[1] ?? match?.[2] ?? match?.[3] ?? '').trim();
  return label === '' ? null : label;
}

function isWhitespace(node: HastChild): boolean {
  return node.type === 'text' && node.value.trim() === '';
}

function element(tagName: string, properties: HastElement['properties'], children: HastElement['children']): HastElement {
  return { type: 'element', tagName, properties, children };
}

/**
 * Rehype plugin: consecutive fenced blocks labelled `tab="..."` (only white space between them) become one
 * group of samples. Without JavaScript every sample shows, under its label; the client turns the group
 * into tabs. The markup, with `n` counting the groups of the page from 1 and `i` the samples from 1:
 *
 *   <div class="code-tabs" id="code-tabs-n">
 *     <div class="code-tabs__panel" id="code-tabs-n-panel-i" data-tab-label="curl" role="group" aria-labelledby="code-tabs-n-label-i">
 *       <p class="code-tabs__label" id="code-tabs-n-label-i">curl</p>
 *       <pre><code class="language-bash">...</code></pre>
 *     </div>
 *     ...
 *   </div>
 *
 * A lone labelled block, or an unlabelled one, stays an ordinary block. Ids that would clash with an id
 * already on the page (a heading's) are skipped, so they are unique and, for the same Markdown, stable.
 */
export function rehypeCodeTabs() {
  return (tree: HastRoot) => {
    const taken = new Set<string>();
    visit(tree, 'element', (node: HastElement) => {
      const id = node.properties?.id;
      if (typeof id === 'string') taken.add(id);
    });
    let counter = 0;
    const groupId = (size: number): string => {
      for (;;) {
        const id = `code-tabs-${++counter}`;
        const ids = [id];
        for (let index = 1; index <= size; index += 1) ids.push(`${id}-panel-${index}`, `${id}-label-${index}`);
        if (ids.every((candidate) => !taken.has(candidate))) {
          for (const candidate of ids) taken.add(candidate);
          return id;
        }
      }
    };

    const group = (samples: { label: string; pre: HastElement }[]): HastElement => {
      const id = groupId(samples.length);
      return element(
        'div',
        { className: ['code-tabs'], id },
        samples.map(({ label, pre }, index) => {
          const labelId = `${id}-label-${index + 1}`;
          return element(
            'div',
            { className: ['code-tabs__panel'], id: `${id}-panel-${index + 1}`, dataTabLabel: label, role: 'group', ariaLabelledBy: [labelId] },
            [element('p', { className: ['code-tabs__label'], id: labelId }, [{ type: 'text', value: label }]), pre],
          );
        }),
      );
    };

    // Depth first, in document order, so that the groups are numbered as they are read.
    const walk = (parent: HastParent): void => {
      const children: HastChild[] = [];
      let index = 0;
      while (index < parent.children.length) {
        const child = parent.children[index];
        const label = tabLabelOf(child);
        if (label === null) {
          if (child.type === 'element') walk(child);
          children.push(child);
          index += 1;
          continue;
        }
        const samples = [{ label, pre: child as HastElement }];
        let end = index + 1;
        for (let next = end; next < parent.children.length; next += 1) {
          const sibling = parent.children[next];
          if (isWhitespace(sibling)) continue;
          const siblingLabel = tabLabelOf(sibling);
          if (siblingLabel === null) break;
          samples.push({ label: siblingLabel, pre: sibling as HastElement });
          end = next + 1;
        }
        if (samples.length === 1) children.push(child);
        else children.push(group(samples));
        index = end;
      }
      parent.children = children as typeof parent.children;
    };
    walk(tree);
  };
}
