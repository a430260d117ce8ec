/**
 * Code blocks: a copy button on each, and the groups of samples that app/docs/codeTabs.server.ts
 * renders as tabs made to work. Idempotent: what is wired carries `data-enhanced`.
 */
import { whenNearViewport } from './nearViewport.js';

const STORAGE_KEY = 'portal.code-tab';
const FEEDBACK_MS = 2000;

function storedLabel(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null; // storage disabled (private mode, blocked cookies)
  }
}

function storeLabel(label: string): void {
  try {
    localStorage.setItem(STORAGE_KEY, label);
  } catch {
    // Not remembered: nothing else to do.
  }
}

/** The old way, for when the Clipboard API is missing (http on another host than localhost) or refuses. */
function copyWithTextarea(text: string): boolean {
  const active = document.activeElement;
  const textarea = document.createElement('textarea');
  textarea.value = text;
  textarea.setAttribute('readonly', '');
  textarea.setAttribute('aria-hidden', 'true');
  textarea.style.cssText = 'position:fixed;top:0;left:0;width:1px;height:1px;opacity:0;pointer-events:none';
  document.body.append(textarea);
  textarea.select();
  textarea.setSelectionRange(0, text.length); // iOS selects nothing with select() alone
  let copied: boolean;
  try {
    copied = document.execCommand('copy');
  } catch {
    copied = false;
  }
  textarea.remove();
  if (active instanceof HTMLElement) active.focus();
  return copied;
}

async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Refused: try the old way.
  }
  return copyWithTextarea(text);
}

function addCopyButton(pre: HTMLElement): void {
  // The button sits in a wrapper, not in the <pre>: it would scroll away with a long line.
  const wrapper = document.createElement('div');
  wrapper.className = 'code-block';
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'code-block__copy';
  button.textContent = 'Copy';
  button.setAttribute('aria-label', 'Copy code to clipboard');
  const status = document.createElement('span');
  status.className = 'visually-hidden';
  status.setAttribute('aria-live', 'polite');
  pre.replaceWith(wrapper);
  wrapper.append(pre, button, status);

  let timer: ReturnType<typeof setTimeout> | undefined;
  button.addEventListener('click', () => {
    const code = pre.querySelector('code') ?? pre;
    // The renderer ends every block with a newline: leave it out, or a pasted command runs at once.
    const text = (code.textContent ?? '').replace(/\n$/, '');
    void copyText(text).then((copied) => {
      clearTimeout(timer);
      button.textContent = copied ? 'Copied' : 'Copy failed';
      button.dataset.state = copied ? 'copied' : 'failed';
      status.textContent = copied ? 'Copied to clipboard' : 'Copy failed: select the code and copy it';
      timer = setTimeout(() => {
        button.textContent = 'Copy';
        delete button.dataset.state;
        status.textContent = '';
      }, FEEDBACK_MS);
    });
  });
}

function tabsOf(group: Element): HTMLButtonElement[] {
  return Array.from(group.querySelectorAll<HTMLButtonElement>(':scope > [role="tablist"] > [role="tab"]'));
}

function panelsOf(group: Element): HTMLElement[] {
  return Array.from(group.querySelectorAll<HTMLElement>(':scope > .code-tabs__panel'));
}

function select(group: Element, index: number, focus: boolean): void {
  const panels = panelsOf(group);
  tabsOf(group).forEach((tab, position) => {
    const selected = position === index;
    tab.setAttribute('aria-selected', String(selected));
    tab.tabIndex = selected ? 0 : -1;
    if (selected && focus) tab.focus();
    const panel = panels[position];
    if (!panel) return;
    panel.hidden = !selected;
    // A panel whose code is written on demand (the reference's samples: app/client/samples.ts).
    if (selected) panel.dispatchEvent(new CustomEvent('code-tabs:shown', { bubbles: true }));
  });
}

function indexOfLabel(group: Element, label: string | null): number {
  return label === null ? -1 : tabsOf(group).findIndex((tab) => tab.dataset.tabLabel === label);
}

/** The reader's choice, remembered and applied to every group of the page that offers it. */
function choose(group: Element, index: number): void {
  const tab = tabsOf(group)[index];
  const label = tab?.dataset.tabLabel;
  select(group, index, true);
  if (!tab || label === undefined) return;
  storeLabel(label);
  // Groups above this one may change height: keep the chosen tab where the reader sees it.
  const top = tab.getBoundingClientRect().top;
  document.querySelectorAll('.code-tabs[data-enhanced]').forEach((other) => {
    const position = indexOfLabel(other, label);
    if (other !== group && position !== -1) select(other, position, false);
  });
  const shift = tab.getBoundingClientRect().top - top;
  if (shift !== 0) window.scrollBy(0, shift);
}

/** Wires a group the server rendered as tabs: clicks, arrow keys, and the reader's remembered language. */
function makeTabs(group: HTMLElement): void {
  const tabs = tabsOf(group);
  if (tabs.length < 2) return;
  group.dataset.enhanced = '';
  tabs.forEach((tab, index) => tab.addEventListener('click', () => choose(group, index)));
  group.querySelector<HTMLElement>(':scope > [role="tablist"]')!.addEventListener('keydown', (event) => {
    const { key } = event;
    if (event.altKey || event.ctrlKey || event.metaKey) return; // Alt+Left is the browser's Back
    const current = tabs.findIndex((tab) => tab === document.activeElement);
    if (current === -1) return;
    const last = tabs.length - 1;
    const target =
      key === 'ArrowRight'
        ? current === last
          ? 0
          : current + 1
        : key === 'ArrowLeft'
          ? current === 0
            ? last
            : current - 1
          : key === 'Home'
            ? 0
            : key === 'End'
              ? last
              : -1;
    if (target === -1) return;
    event.preventDefault();
    choose(group, target);
  });
  const remembered = indexOfLabel(group, storedLabel());
  if (remembered > 0) select(group, remembered, false);
}

/**
 * A block gets its copy button as it comes within a screen of the viewport (or is shown, for a
 * hidden tab). /rest-api has 200 blocks: wrapping them all at start-up dirtied the whole page and
 * held a deep link's scroll back by about 35 ms, for buttons no one could see yet.
 */
function addCopyButtonWhenNear(pre: HTMLElement): void {
  pre.dataset.enhanced = '';
  whenNearViewport(pre, addCopyButton);
}

/** Wires the code blocks under `root` (the document, or a new page's body after a client-side navigation). */
export function initCodeBlocks(root: ParentNode): void {
  root.querySelectorAll<HTMLElement>('.code-tabs:not([data-enhanced])').forEach(makeTabs);
  root
    .querySelectorAll<HTMLElement>('.markdown pre:not([data-enhanced]), pre[data-copy]:not([data-enhanced])')
    .forEach(addCopyButtonWhenNear);
}
