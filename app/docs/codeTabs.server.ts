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
  const code = node.children.find(
    (child): child is HastElement => child.type === 'element' && child.tagName === 'code',
  );
  const meta = (code?.data as { meta?: unknown } | undefined)?.meta;
  if (typeof meta !== 'string') return null;
  const match = TAB_LABEL.exec(meta);
  const label = (match?.[1] ?? match?.[2] ?? match?.[3] ?? '').trim();
  return label === '' ? null : label;
}

function isWhitespace(node: HastChild): boolean {
  return node.type === 'text' && node.value.trim() === '';
}

function element(
  tagName: string,
  properties: HastElement['properties'],
  children: HastElement['children'],
): HastElement {
  return { type: 'element', tagName, properties, children };
}

/**
 * Rehype plugin: consecutive fenced blocks labelled `tab="..."` (only white space between them) become one
 * group of samples, rendered as tabs on the server so the page does not move when the client wires them
 * (the first sample shows). Without JavaScript, a <noscript> style in the root layout hides the tab list and
 * shows every sample under its label. With `n` counting the groups of the page from 1 and `i` the samples:
 *
 *   <div class="code-tabs" id="code-tabs-n">
 *     <div class="code-tabs__tablist" role="tablist" aria-label="Code samples">
 *       <button type="button" class="code-tabs__tab" id="code-tabs-n-panel-i-tab" role="tab"
 *         aria-controls="code-tabs-n-panel-i" aria-selected="true" tabindex="0" data-tab-label="curl">curl</button>
 *       ...
 *     </div>
 *     <div class="code-tabs__panel" id="code-tabs-n-panel-i" data-tab-label="curl" role="tabpanel"
 *       aria-labelledby="code-tabs-n-panel-i-tab">   (hidden unless i = 1)
 *       <p class="code-tabs__label" id="code-tabs-n-label-i" hidden>curl</p>
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
        for (let index = 1; index <= size; index += 1)
          ids.push(`${id}-panel-${index}`, `${id}-panel-${index}-tab`, `${id}-label-${index}`);
        if (ids.every((candidate) => !taken.has(candidate))) {
          for (const candidate of ids) taken.add(candidate);
          return id;
        }
      }
    };

    const group = (samples: { label: string; pre: HastElement }[]): HastElement => {
      const id = groupId(samples.length);
      const panelId = (index: number) => `${id}-panel-${index + 1}`;
      const tablist = element(
        'div',
        { className: ['code-tabs__tablist'], role: 'tablist', ariaLabel: 'Code samples' },
        samples.map(({ label }, index) =>
          element(
            'button',
            {
              type: 'button',
              className: ['code-tabs__tab'],
              id: `${panelId(index)}-tab`,
              role: 'tab',
              ariaControls: [panelId(index)],
              ariaSelected: index === 0 ? 'true' : 'false',
              tabIndex: index === 0 ? 0 : -1,
              dataTabLabel: label,
            },
            [{ type: 'text', value: label }],
          ),
        ),
      );
      const panels = samples.map(({ label, pre }, index) =>
        element(
          'div',
          {
            className: ['code-tabs__panel'],
            id: panelId(index),
            dataTabLabel: label,
            role: 'tabpanel',
            ariaLabelledBy: [`${panelId(index)}-tab`],
            hidden: index > 0,
          },
          [
            element('p', { className: ['code-tabs__label'], id: `${id}-label-${index + 1}`, hidden: true }, [
              { type: 'text', value: label },
            ]),
            pre,
          ],
        ),
      );
      return element('div', { className: ['code-tabs'], id }, [tablist, ...panels]);
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
      parent.children = children;
    };
    walk(tree);
  };
}
