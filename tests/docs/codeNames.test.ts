/**
 * Every operation, field, enum value and status the docs name in a code span exists in the
 * generated OpenAPI document (or, for the sandbox's mutations and the configuration, in the graph
 * and the config they belong to). Spans that are plainly not names (JSON, URLs, commands, values)
 * are recognised by their shape; see support/codeSpans.ts.
 */
import { describe, expect, it } from 'vitest';
import { withAddresses } from '../../app/docs/addresses.server.js';
import { testDocsAddresses } from '../portal/testPortal.js';
import { apiNames } from './support/apiNames.js';
import { fencedCodeWords, inlineCodeSpans, problemWithSpan } from './support/codeSpans.js';
import { docsPagesInOrder, isOperatorPage } from './support/docsPages.js';

const names = apiNames();

describe('names in the code spans of the docs', () => {
  it('reports a misspelt field, an unknown enum value, operation, path and status', () => {
    const spans = inlineCodeSpans(
      '---\ntitle: T\ndescription: D.\nsidebar_label: T\nsidebar_position: 1\n---\nThe `offerNmae`, `PUBLISHD`, `GET /public/offers/v1/nothing`, `GET $HOST/public/offers/v1/nothing`, `/v3/offers`, `418`, `stock.pryce` and `{"offer": {"nmae": "x"}}`.\n',
      'page.md',
    );
    expect(spans.map((span) => [span.line, problemWithSpan(span.text, names)])).toEqual([
      [7, 'no field, enum value, operation or schema named offerNmae'],
      [7, 'no field, enum value, operation or schema named PUBLISHD'],
      [7, 'no operation GET /public/offers/v1/nothing'],
      [7, 'no operation GET $HOST/public/offers/v1/nothing'],
      [7, 'no path /v3/offers'],
      [7, 'status 418 is declared by no operation'],
      [7, 'no field pryce (in stock.pryce)'],
      [7, 'no field nmae (in {"offer": {"nmae": "x"}})'],
    ]);
  });

  it("accepts a name of the page's own sample code, and only there", () => {
    const pageCode = fencedCodeWords('```js\nconst rawBody = request.body;\n```\n');
    expect(problemWithSpan('request.body', names, pageCode)).toBeNull();
    expect(problemWithSpan('rawBody', names, pageCode)).toBeNull();
    expect(problemWithSpan('rawBody', names)).toBe('no field, enum value, operation or schema named rawBody');
  });

  it('accepts real names in every form the docs use', () => {
    for (const text of [
      'idAtProvider',
      'PUBLISHED',
      'PostEventOffer',
      'POST /v2/collective/adage_mock/offer/{offer_id}/book',
      'GET $HOST/v2/collective/educational-institutions/?city=lyon',
      '/public/offers/v1/events',
      '/v2/collective/bookings/${BOOKING_ID}/use',
      '/public/...',
      'stock.price',
      'isActive: false',
      '{"stock.price": ["..."]}',
      'limit=50',
      '"offerStatus": "UNDER_REVIEW"',
      'sandboxBook',
      'DATABASE_URL',
      '404',
    ]) {
      expect(problemWithSpan(text, names), text).toBeNull();
    }
  });

  it('name only what the API has, on every page of the API (the self-hosting pages name the process)', () => {
    const apiPages = docsPagesInOrder().filter((page) => !isOperatorPage(page.file));
    const problems = apiPages.flatMap(({ file, source: raw }) => {
      // As a reader sees the page: its addresses those of a server's configuration.
      const source = withAddresses(raw, file, testDocsAddresses);
      const pageCode = fencedCodeWords(source);
      return inlineCodeSpans(source, file).flatMap((span) => {
        const problem = problemWithSpan(span.text, names, pageCode);
        return problem ? [`${span.file}:${span.line}: \`${span.text}\`: ${problem}`] : [];
      });
    });
    expect(problems).toEqual([]);
  });
});
