/**
 * The try-it console's pure part: from a path template, the values a reader typed and the body
 * text, the relative URL and the body to send, or what is wrong with them. No DOM, so the unit
 * tests run it as the browser does (app/client/tryIt.ts bundles it).
 */

export interface TryItValue {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  value: string;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * A URL relative to this origin: the path template with each `{name}` replaced by its value,
 * encoded (a `/` or `?` in a value stays in its segment), then the query parameters that have a
 * value. A required parameter left empty is an error; an empty optional query parameter is left out.
 */
export function buildTryItUrl(pathTemplate: string, values: TryItValue[]): Checked<string> {
  // Only a path of this server: never a URL with a host, nor a protocol-relative one.
  if (!pathTemplate.startsWith('/') || pathTemplate.startsWith('//'))
    return { ok: false, error: `Not a path of this server: ${pathTemplate}` };
  const missing = values
    .filter((value) => value.value.trim() === '' && (value.required || value.in === 'path'))
    .map((value) => value.name);
  if (missing.length)
    return { ok: false, error: `Missing required parameter${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}` };

  const byName = new Map(
    values.filter((value) => value.in === 'path').map((value) => [value.name, value.value.trim()]),
  );
  let unknown: string | undefined;
  let dotSegment: string | undefined;
  const path = pathTemplate.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const value = byName.get(name);
    if (value === undefined) {
      unknown ??= name;
      return '';
    }
    // "." and ".." would move the request up the path, to another operation.
    if (value === '.' || value === '..') dotSegment ??= name;
    return encodeURIComponent(value);
  });
  if (unknown !== undefined) return { ok: false, error: `Missing required parameter: ${unknown}` };
  if (dotSegment !== undefined) return { ok: false, error: `Not a valid value for ${dotSegment}` };

  const query = values
    .filter((value) => value.in === 'query' && value.value.trim() !== '')
    .map((value) => `${encodeURIComponent(value.name)}=${encodeURIComponent(value.value.trim())}`)
    .join('&');
  return { ok: true, value: query ? `${path}?${query}` : path };
}

/** The body as typed, once it parses as JSON; otherwise where it does not. */
export function checkJsonBody(text: string): Checked<string> {
  const body = text.trim();
  if (!body) return { ok: false, error: 'The body is empty: enter a JSON document.' };
  try {
    JSON.parse(body);
  } catch (error) {
    return {
      ok: false,
      error: `The body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  return { ok: true, value: body };
}

/** A JSON answer indented for reading; any other text as it came. */
export function prettyBody(text: string, contentType: string | null): string {
  if (!/\bjson\b/i.test(contentType ?? '') || !text) return text;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
