/**
 * The reference's try-it console (app/reference/TryIt.tsx renders it, folded, its form in a
 * template). Here a console's form is made when it first opens, the API key is shared by every form of the page and
 * kept in session storage (never in the URL, local storage or a log), and Send makes the one
 * request the reader asked for, to this same server: the URL is always a path of this origin.
 * Idempotent: a console already opened has no template left.
 */
import { type TryItValue, buildTryItUrl, checkJsonBody, prettyBody } from '../reference/tryItRequest.js';
import { whenDetailsOpen } from './detailsOpened.js';

const STORAGE_KEY = 'portal.try-it.api-key';
const TIMEOUT_MS = 30_000;
/** A longer answer is cut when shown: the page must stay responsive. */
const SHOWN_CHARACTERS = 200_000;

function storedKey(): string {
  try {
    return sessionStorage.getItem(STORAGE_KEY) ?? '';
  } catch {
    return ''; // storage refused: the key lasts as long as the page
  }
}

function storeKey(key: string): void {
  try {
    if (key) sessionStorage.setItem(STORAGE_KEY, key);
    else sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Not kept: the reader types it again on the next page.
  }
}

function keyInputs(): HTMLInputElement[] {
  return [...document.querySelectorAll<HTMLInputElement>('input[data-try-it-key]')];
}

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function showError(output: HTMLElement, message: string): void {
  output.replaceChildren(element('p', 'try-it__error', message));
}

function showResponse(output: HTMLElement, response: Response, text: string, elapsed: number): void {
  const status = element('p', `try-it__status try-it__status--${response.ok ? 'ok' : 'error'}`);
  status.append(
    element('strong', '', `${response.status} ${response.statusText}`.trim()),
    ` in ${Math.round(elapsed)} ms`,
  );
  const headers: string[] = [];
  response.headers.forEach((value, name) => headers.push(`${name}: ${value}`));
  const headerBlock = element('details', 'try-it__headers');
  headerBlock.append(
    element('summary', '', `Response headers (${headers.length})`),
    element('pre', '', headers.sort().join('\n')),
  );
  const shown = prettyBody(text, response.headers.get('content-type'));
  const body = element('pre', 'try-it__body');
  body.tabIndex = 0; // a scrolling region is reached from the keyboard
  body.setAttribute('role', 'region');
  body.setAttribute('aria-label', 'Response body');
  body.append(
    element(
      'code',
      '',
      shown.length > SHOWN_CHARACTERS ? `${shown.slice(0, SHOWN_CHARACTERS)}\n…` : shown || '(empty body)',
    ),
  );
  output.replaceChildren(status, headerBlock, body);
}

async function send(form: HTMLFormElement, button: HTMLButtonElement, output: HTMLElement): Promise<void> {
  const key = form.querySelector<HTMLInputElement>('input[data-try-it-key]')!.value.trim();
  if (!key) return showError(output, 'Enter your API key first.');
  const values: TryItValue[] = [...form.querySelectorAll<HTMLInputElement>('input[data-in]')].map((input) => ({
    name: input.name,
    in: input.dataset.in === 'path' ? 'path' : 'query',
    required: input.required,
    value: input.value,
  }));
  const url = buildTryItUrl(form.dataset.path ?? '', values);
  if (!url.ok) return showError(output, url.error);

  const mediaType = form.dataset.mediaType;
  const headers: Record<string, string> = { Authorization: `Bearer ${key}`, Accept: 'application/json' };
  const idempotencyKey = form.querySelector<HTMLInputElement>('input[data-idempotency-key]')?.value.trim();
  if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
  let body: string | undefined;
  if (mediaType) {
    const checked = checkJsonBody(form.querySelector<HTMLTextAreaElement>('textarea[name="body"]')?.value ?? '');
    if (!checked.ok) return showError(output, checked.error);
    body = checked.value;
    headers['Content-Type'] = mediaType;
  }

  button.disabled = true;
  form.setAttribute('aria-busy', 'true');
  output.replaceChildren(element('p', 'try-it__status', 'Sending…'));
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
  const started = performance.now();
  try {
    // A relative URL: this origin only, and no cookie or other credential but the key typed.
    const response = await fetch(url.value, {
      method: form.dataset.method ?? 'GET',
      headers,
      body,
      credentials: 'omit',
      cache: 'no-store',
      redirect: 'error',
      signal: controller.signal,
    });
    const text = await response.text();
    showResponse(output, response, text, performance.now() - started);
  } catch (error) {
    const reason = controller.signal.aborted
      ? `no answer within ${TIMEOUT_MS / 1000} s`
      : error instanceof Error
        ? error.message
        : String(error);
    showError(output, `The request could not be sent: ${reason}.`);
  } finally {
    clearTimeout(timer);
    button.disabled = false;
    form.removeAttribute('aria-busy');
  }
}

/** A UUID where the page may make one (a secure context), random hexadecimal otherwise. */
function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return [...crypto.getRandomValues(new Uint8Array(16))].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * A write's key stays while the request stays the same, so that Send again is a retry (the answer
 * comes back replayed, nothing runs twice), and is renewed once the reader changes the request.
 */
function keepIdempotencyKeyPerRequest(form: HTMLFormElement): void {
  if ((form.dataset.method ?? 'GET') === 'GET') return;
  // Made here rather than in the page's markup: 55 consoles' templates stay as small as they were.
  const field = element('label', 'try-it__field');
  const caption = element('span', '');
  caption.append(
    element('code', '', 'Idempotency-Key'),
    ' ',
    element('small', '', 'header, new when the request changes'),
  );
  const input = element('input', '');
  input.dataset.idempotencyKey = '';
  input.autocomplete = 'off';
  input.spellcheck = false;
  field.append(caption, input);
  form.querySelector('.try-it__actions')?.before(field);
  input.value = newIdempotencyKey();
  form.addEventListener('input', (event) => {
    const changed = event.target as HTMLElement;
    if (changed !== input && !changed.matches('[data-try-it-key]')) input.value = newIdempotencyKey();
  });
}

function enhance(form: HTMLFormElement): void {
  form.dataset.enhanced = '';
  const button = form.querySelector<HTMLButtonElement>('.try-it__send');
  const output = form.querySelector<HTMLElement>('[data-try-it-output]');
  const keyInput = form.querySelector<HTMLInputElement>('input[data-try-it-key]');
  if (!button || !output || !keyInput) return;
  keepIdempotencyKeyPerRequest(form);
  keyInput.value = storedKey() || keyInputs().find((input) => input.value)?.value || '';
  // One key for the page: typed in one form, it is in all of them.
  keyInput.addEventListener('input', () => {
    for (const other of keyInputs()) if (other !== keyInput) other.value = keyInput.value;
    storeKey(keyInput.value.trim());
  });
  form.addEventListener('submit', (event) => {
    // Never a form submission: the navigation script leaves a prevented submission alone.
    event.preventDefault();
    if (!button.disabled) void send(form, button, output);
  });
}

/** A console opened for the first time: its form comes out of its template, wired. */
function open(console: HTMLDetailsElement): void {
  const template = console.querySelector<HTMLTemplateElement>(':scope > template[data-try-it-form]');
  if (!template) return;
  const fragment = template.content.cloneNode(true) as DocumentFragment;
  const form = fragment.querySelector<HTMLFormElement>('form');
  console.querySelector(':scope > [data-try-it-note]')?.remove();
  template.replaceWith(fragment);
  if (form) enhance(form);
}

let listening = false;

/** Makes the try-it consoles work, each as it first opens: the page wires nothing per operation before it is used. */
export function initTryIt(root: ParentNode): void {
  if (!listening) {
    listening = true;
    whenDetailsOpen('details[data-try-it]', open);
  }
  root.querySelectorAll<HTMLDetailsElement>('details[data-try-it][open]').forEach(open);
}
