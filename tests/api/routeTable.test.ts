import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { routeTable } from '../../rest-facade/routeTable.js';

const answer =
  (name: string): RequestHandler =>
  (req, res) => {
    res.json({ name, params: req.params });
  };

/** The table behind a fallback that says what reached it, as the app's apiNotFound does. */
function appOf(table: RequestHandler): express.Express {
  const app = express();
  app.use(table);
  app.use((req, res) => {
    res.status(404).json({ fallback: `${req.method} ${req.path}` });
  });
  const onError: ErrorRequestHandler = (error: Error, _req, res, _next) => {
    res.status(500).json({ error: error.message });
  };
  app.use(onError);
  return app;
}

const app = appOf(
  routeTable([
    { method: 'get', path: '/v1/events/categories', handlers: [answer('categories')] },
    { method: 'get', path: '/v1/events/{event_id}', handlers: [answer('event')] },
    { method: 'patch', path: '/v1/events/{event_id}', handlers: [answer('edit')] },
    { method: 'get', path: '/v1/events/{event_id}/dates/{stock_id}', handlers: [answer('date')] },
    { method: 'post', path: '/v2/offers/', handlers: [answer('offers')] },
  ]),
);

describe('routeTable: the operations matched as Express matched them', () => {
  it('takes a literal segment before a parameter, in the order given, and names the parameters', async () => {
    expect((await request(app).get('/v1/events/categories')).body).toEqual({ name: 'categories', params: {} });
    expect((await request(app).get('/v1/events/12')).body).toEqual({ name: 'event', params: { event_id: '12' } });
    expect((await request(app).get('/v1/events/12/dates/7')).body).toEqual({
      name: 'date',
      params: { event_id: '12', stock_id: '7' },
    });
  });

  it('matches literal segments in any case and allows one trailing slash', async () => {
    expect((await request(app).get('/V1/Events/12')).body.name).toBe('event');
    expect((await request(app).get('/v1/events/12/')).body.name).toBe('event');
    expect((await request(app).get('/v1/events/12//')).status).toBe(404);
    expect((await request(app).post('/v2/offers/')).body.name).toBe('offers');
    expect((await request(app).post('/v2/offers')).body.name).toBe('offers');
  });

  it('decodes parameters, and leaves a malformed escape as sent for the schema to refuse', async () => {
    expect((await request(app).get('/v1/events/a%20b')).body.params).toEqual({ event_id: 'a b' });
    expect((await request(app).get('/v1/events/%E0')).body.params).toEqual({ event_id: '%E0' });
  });

  it('picks the operation of the method, and passes on a method or path it does not know', async () => {
    expect((await request(app).patch('/v1/events/3')).body.name).toBe('edit');
    expect((await request(app).post('/v1/events/3')).body).toEqual({ fallback: 'POST /v1/events/3' });
    expect((await request(app).get('/v1/events')).body).toEqual({ fallback: 'GET /v1/events' });
    expect((await request(app).get('/v1/events/3/dates')).body).toEqual({ fallback: 'GET /v1/events/3/dates' });
  });

  it('serves HEAD with GET and answers OPTIONS with the methods of the path', async () => {
    const head = await request(app).head('/v1/events/3');
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toMatch(/^application\/json/);
    const options = await request(app).options('/v1/events/3');
    expect(options.status).toBe(200);
    expect(options.headers.allow).toBe('GET,HEAD,PATCH');
    expect((await request(app).options('/v1/nothing')).status).toBe(404);
  });

  it('runs the handlers in order, and sends an error thrown or passed on to the error handler', async () => {
    const seen: string[] = [];
    const step =
      (name: string): RequestHandler =>
      (_req, _res, next) => {
        seen.push(name);
        next();
      };
    const failing = appOf(
      routeTable([
        {
          method: 'get',
          path: '/thrown',
          handlers: [
            step('auth'),
            step('limit'),
            () => {
              throw new Error('thrown');
            },
          ],
        },
        { method: 'get', path: '/passed', handlers: [(_req, _res, next) => next(new Error('passed'))] },
        { method: 'get', path: '/through', handlers: [step('only')] },
      ]),
    );
    expect((await request(failing).get('/thrown')).body).toEqual({ error: 'thrown' });
    expect(seen).toEqual(['auth', 'limit']);
    expect((await request(failing).get('/passed')).body).toEqual({ error: 'passed' });
    expect((await request(failing).get('/through')).body).toEqual({ fallback: 'GET /through' });
  });
});
