/**
 * The answer of a fragment route, which the reference's client inserts into the page: the HTML,
 * cacheable for five minutes (it changes only with the document), or a plain-text 404 saying
 * what was not found.
 */
export function fragmentResponse(html: string | null, notFound: string): Response {
  if (html === null) {
    return new Response(notFound, { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  }
  return new Response(html, {
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'public, max-age=300' },
  });
}
