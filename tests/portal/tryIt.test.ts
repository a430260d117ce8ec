/**
 * The try-it console's pure parts (the URL and body it sends, app/reference/tryItRequest.ts) and
 * the markup the server renders for it (app/reference/TryIt.tsx), without a browser.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { TryIt } from '../../app/reference/TryIt.js';
import type { TryItOperation } from '../../app/reference/tryItModel.js';
import { type TryItValue, buildTryItUrl, checkJsonBody, prettyBody } from '../../app/reference/tryItRequest.js';

const path = (name: string, value: string): TryItValue => ({ name, in: 'path', required: true, value });
const query = (name: string, value: string, required = false): TryItValue => ({ name, in: 'query', required, value });

describe('the try-it URL', () => {
  it('substitutes each path parameter, encoded so that it stays in its segment', () => {
    expect(
      buildTryItUrl('/public/offers/v1/events/{event_id}/dates/{stock_id}', [
        path('event_id', '12'),
        path('stock_id', ' 34 '),
      ]),
    ).toEqual({
      ok: true,
      value: '/public/offers/v1/events/12/dates/34',
    });
    expect(buildTryItUrl('/public/bookings/v1/token/{token}', [path('token', 'a/b?c=d#e f')])).toEqual({
      ok: true,
      value: '/public/bookings/v1/token/a%2Fb%3Fc%3Dd%23e%20f',
    });
  });

  it('adds the query parameters that have a value, encoded, and drops the empty optional ones', () => {
    expect(
      buildTryItUrl('/public/offers/v1/events', [
        query('limit', '50'),
        query('venueId', ''),
        query('idsAtProvider', 'a&b,c=d'),
        query('firstIndex', '   '),
      ]),
    ).toEqual({ ok: true, value: '/public/offers/v1/events?limit=50&idsAtProvider=a%26b%2Cc%3Dd' });
    expect(buildTryItUrl('/public/offers/v1/events', [query('venueId', '')])).toEqual({
      ok: true,
      value: '/public/offers/v1/events',
    });
  });

  it('refuses a required parameter left empty, path or query, naming it', () => {
    expect(buildTryItUrl('/public/offers/v1/events/{event_id}', [path('event_id', ' ')])).toEqual({
      ok: false,
      error: 'Missing required parameter: event_id',
    });
    expect(buildTryItUrl('/public/bookings/v1/bookings', [query('offerId', '', true), query('limit', '')])).toEqual({
      ok: false,
      error: 'Missing required parameter: offerId',
    });
    expect(buildTryItUrl('/a/{x}/{y}', [path('x', ''), path('y', '')])).toEqual({
      ok: false,
      error: 'Missing required parameters: x, y',
    });
    // A placeholder of the template without a field is missing too.
    expect(buildTryItUrl('/a/{x}', [])).toEqual({ ok: false, error: 'Missing required parameter: x' });
  });

  it('stays on this server: never a URL with a host, never a dot segment that climbs the path', () => {
    expect(buildTryItUrl('https://elsewhere.example/a', []).ok).toBe(false);
    expect(buildTryItUrl('//elsewhere.example/a', []).ok).toBe(false);
    expect(buildTryItUrl('/a/{x}', [path('x', '..')])).toEqual({ ok: false, error: 'Not a valid value for x' });
    const url = buildTryItUrl('/a/{x}', [path('x', '//elsewhere.example')]);
    expect(url).toEqual({ ok: true, value: '/a/%2F%2Felsewhere.example' });
    expect(new URL((url as { value: string }).value, 'http://127.0.0.1:3000/rest-api').origin).toBe(
      'http://127.0.0.1:3000',
    );
  });
});

describe('the try-it body', () => {
  it('accepts JSON as typed, trimmed', () => {
    expect(checkJsonBody('  {"name": "Rock night"}\n')).toEqual({ ok: true, value: '{"name": "Rock night"}' });
    expect(checkJsonBody('[]')).toEqual({ ok: true, value: '[]' });
  });

  it('refuses an empty body and text that is not JSON, saying why', () => {
    expect(checkJsonBody('  ')).toEqual({ ok: false, error: 'The body is empty: enter a JSON document.' });
    const invalid = checkJsonBody('{"name": "Rock night",}');
    expect(invalid.ok).toBe(false);
    expect((invalid as { error: string }).error).toMatch(/^The body is not valid JSON: /);
  });

  it('shows a JSON answer indented, and any other answer as it came', () => {
    expect(prettyBody('{"id":1,"a":[1]}', 'application/json; charset=utf-8')).toBe(
      '{\n  "id": 1,\n  "a": [\n    1\n  ]\n}',
    );
    expect(prettyBody('{"title":"x"}', 'application/problem+json')).toBe('{\n  "title": "x"\n}');
    expect(prettyBody('{not json', 'application/json')).toBe('{not json');
    expect(prettyBody('<p>hi</p>', 'text/html')).toBe('<p>hi</p>');
  });
});

describe('the try-it markup', () => {
  const operation: TryItOperation = {
    operationId: 'EditEvent',
    method: 'patch',
    path: '/public/offers/v1/events/{event_id}',
    parameters: [
      { name: 'event_id', in: 'path', required: true, example: '1', description: 'The event.' },
      { name: 'dryRun', in: 'query', required: false, example: '', description: 'Checks only.' },
    ],
    body: { mediaType: 'application/json', example: '{\n  "name": "Rock night"\n}' },
  };
  const render = (value: TryItOperation) => renderToStaticMarkup(createElement(TryIt, { operation: value }));

  it('is a folded panel whose form waits in a template (inert until the script makes it) and never submits anywhere', () => {
    const html = render(operation);
    expect(html).toMatch(
      /^<details class="try-it" data-try-it=""><summary class="try-it__toggle">Try it<\/summary><p class="try-it__note" data-try-it-note="">Sending needs JavaScript.<\/p><template data-try-it-form=""><form /,
    );
    expect(html).toMatch(/<\/form><\/template><\/details>$/);
    expect(html).toContain('method="dialog"');
    expect(html).not.toContain('action=');
    expect(html).toContain(
      'data-method="PATCH" data-path="/public/offers/v1/events/{event_id}" data-media-type="application/json"',
    );
    expect(html).toContain('<button type="submit" class="button try-it__send">Send</button>');
    expect(html).toContain('<div class="try-it__output" aria-live="polite" data-try-it-output="">');
  });

  it('labels every control; the key field is a password without a name, so no submission carries it', () => {
    const html = render(operation);
    expect(html).toMatch(
      /<label class="try-it__field"><span>API key <small>\(kept in this tab\)<\/small><\/span><input type="password" autoComplete="off" spellcheck="false" data-try-it-key=""\/><\/label>/i,
    );
    expect(html).toContain(
      '<code>event_id</code> <small>path, required</small></span><input name="event_id" data-in="path" required="" autoComplete="off" value="1"/>',
    );
    expect(html).toContain(
      '<code>dryRun</code> <small>query</small></span><input name="dryRun" data-in="query" autoComplete="off"',
    );
    expect(html).toMatch(
      /<textarea name="body" rows="4" spellcheck="false">\{\n {2}&quot;name&quot;: &quot;Rock night&quot;\n\}<\/textarea>/,
    );
    // Every input and textarea sits in a label.
    expect(html.match(/<(input|textarea)\b/g)).toHaveLength(4);
    expect(html.match(/<label class="try-it__field">/g)).toHaveLength(4);
  });

  it('says a multipart body cannot be sent from here, with a link to how to send it', () => {
    const html = render({ ...operation, body: { mediaType: 'multipart/form-data', example: '' } });
    expect(html).not.toContain('<form');
    expect(html).toContain('A multipart/form-data body (a file) cannot be sent from here');
    expect(html).toContain('href="/docs/understanding-our-api/authentication-authorization#sending-your-api-key"');
  });

  it('stays compact: about a kilobyte for an operation without a body, and nothing but the toggle and the note live in the page', () => {
    const html = render({ ...operation, body: undefined });
    expect(html.length).toBeLessThan(1100);
    expect(html.replace(/<template[\s\S]*<\/template>/, '').match(/<[a-z]+/g)).toEqual(['<details', '<summary', '<p']);
  });
});
