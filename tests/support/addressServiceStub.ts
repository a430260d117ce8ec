import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the national address base's search API (api-adresse style,
 * `GET /search/?q=...&postcode=...`), on 127.0.0.1 and an ephemeral port, for an app started
 * with `GEOCODER_URL: stub.baseUrl`. It records every request and answers with whatever
 * `stub.handler` does (by default: no feature found).
 */
export type StubHandler = (request: IncomingMessage, response: ServerResponse) => void;

export interface AddressServiceStub {
  /** Root URL to give as GEOCODER_URL. */
  readonly baseUrl: string;
  /** Every request received, in order. */
  readonly requests: URL[];
  handler: StubHandler;
  /** Forgets the requests and answers "no feature" again. */
  reset(): void;
  close(): Promise<void>;
}

export interface BanFeatureOptions {
  id?: string;
  name: string;
  postcode: string;
  citycode: string;
  city: string;
  score?: number;
  type?: string;
  /** `[longitude, latitude]`, as GeoJSON has it. */
  coordinates: [number, number];
}

/** A feature as api-adresse's `GET /search/` returns it (GeoCodeJSON). */
export function aBanFeature(options: BanFeatureOptions): Record<string, unknown> {
  return {
    type: 'Feature',
    geometry: { type: 'Point', coordinates: options.coordinates },
    properties: {
      label: `${options.name} ${options.postcode} ${options.city}`,
      score: options.score ?? 0.97,
      id: options.id,
      name: options.name,
      postcode: options.postcode,
      citycode: options.citycode,
      city: options.city,
      type: options.type ?? 'housenumber',
    },
  };
}

export function aFeatureCollection(features: unknown[]): Record<string, unknown> {
  return {
    type: 'FeatureCollection',
    version: 'draft',
    features,
    attribution: 'BAN',
    licence: 'ETALAB-2.0',
    limit: 1,
  };
}

/** A handler answering `body` as JSON with `status`. */
export function answerJson(body: unknown, status = 200): StubHandler {
  return (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    response.end(JSON.stringify(body));
  };
}

/** A handler that drops the connection without answering, as a service going down would. */
export const dropConnection: StubHandler = (request) => {
  request.socket.destroy();
};

const noFeature: StubHandler = answerJson(aFeatureCollection([]));

export async function startAddressServiceStub(): Promise<AddressServiceStub> {
  const requests: URL[] = [];
  const stub = {
    baseUrl: '',
    requests,
    handler: noFeature,
    reset() {
      requests.length = 0;
      stub.handler = noFeature;
    },
    close: async () => {},
  };
  const server: Server = createServer((request, response) => {
    requests.push(new URL(request.url ?? '/', 'http://stub'));
    stub.handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stub.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  stub.close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return stub;
}
