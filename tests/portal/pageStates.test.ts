import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createTestPortal } from './testPortal.js';

/** The server's side of the page states; the browser suites click the buttons. */
describe('page states, as the server renders them', () => {
  it('answers a failed loader with 503, the error box with its text, and a Retry form for the same URL', async () => {
    const app = await createTestPortal({ testFixtures: true });
    const response = await request(app).get('/test-fixtures/load-failure?from=docs');
    expect(response.status).toBe(503);
    expect(response.text).toContain('<title>This page could not be loaded | API documentation</title>');
    expect(response.text).toMatch(/<div class="error-box" role="alert">/);
    expect(response.text).toContain('<p class="error-box__message">The fixture could not be loaded.</p>');
    // A GET form: Retry works before the script loads, and keeps the query.
    expect(response.text).toMatch(
      /<form method="get" action="\/test-fixtures\/load-failure"[^>]*><input type="hidden" name="from" value="docs"\/><button type="submit" class="button">Retry<\/button><\/form>/,
    );
    // The cause stays in the server's log, never on the page.
    expect(response.text).not.toContain('fixture loader failed');
  }, 120_000);

  it('answers a component that throws with 500, "This page crashed" and Try again, inside the chrome', async () => {
    const app = await createTestPortal({ testFixtures: true });
    const response = await request(app).get('/test-fixtures/crash');
    expect(response.status).toBe(500);
    expect(response.text).toContain('<h1>This page crashed</h1>');
    expect(response.text).toMatch(/<button type="submit" class="button">Try again<\/button>/);
    expect(response.text).toContain('<header class="navbar">');
    expect(response.text).toContain('<footer class="footer">');
    expect(response.text).not.toContain('fixture component threw');
  }, 120_000);

  it('has no test pages unless the portal is created for tests', async () => {
    const app = await createTestPortal();
    for (const kind of ['load-failure', 'crash', 'slow']) {
      expect((await request(app).get(`/test-fixtures/${kind}`)).status, kind).toBe(404);
    }
  }, 120_000);
});
