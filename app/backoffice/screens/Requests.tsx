import { gql, useQuery } from '@apollo/client';
import { useState } from 'react';
import { CodeText, formatDate, LoadOlder, QueryState } from '../client/states.js';
import { followInPage } from '../Shell.js';

const PAGE = 50;

/** What a row of the list and a request's page both show. */
const REQUEST_LINE = gql`
  fragment RequestLine on RecordedRequest {
    id
    requestId
    createdAt
    method
    path
    query
    operationId
    status
    durationMs
    apiKeyPrefix
    providerId
  }
`;

const REQUESTS = gql`
  query Requests($filter: RecordedRequestFilter, $page: RecordedRequestPage) {
    requests(filter: $filter, page: $page) {
      ...RequestLine
    }
  }
  ${REQUEST_LINE}
`;

const REQUEST = gql`
  query Request($requestId: String!) {
    request(requestId: $requestId) {
      ...RequestLine
      requestBody
      requestBodyTruncated
      responseBody
      responseBodyTruncated
    }
  }
  ${REQUEST_LINE}
`;

interface RecordedRequest {
  id: number;
  requestId: string;
  createdAt: string;
  method: string;
  path: string;
  query: string | null;
  operationId: string | null;
  status: number;
  durationMs: number;
  apiKeyPrefix: string;
  providerId: number;
}

interface RecordedRequestWithBodies extends RecordedRequest {
  requestBody: string | null;
  requestBodyTruncated: boolean;
  responseBody: string | null;
  responseBodyTruncated: boolean;
}

export interface RequestFilters {
  /** Staff only: one provider's requests (a provider's own console reads its own). */
  providerId: string;
  statusClass: string;
  operationId: string;
  path: string;
  requestId: string;
}

/** The filters a URL of the Requests screen carries (`?requestId=…` finds one request). */
export function requestFiltersOf(search: string): RequestFilters {
  const params = new URLSearchParams(search);
  return {
    providerId: params.get('provider') ?? '',
    statusClass: params.get('statusClass') ?? '',
    operationId: params.get('operationId') ?? '',
    path: params.get('path') ?? '',
    requestId: params.get('requestId') ?? '',
  };
}

const orNull = (value: string) => (value.trim() === '' ? null : value.trim());

function Body({ label, text, truncated }: { label: string; text: string | null; truncated: boolean }) {
  return (
    <section aria-label={label}>
      <h2>{label}</h2>
      {truncated ? <p className="bo-hint">Longer than 64 KB: cut here.</p> : null}
      <CodeText text={text} />
    </section>
  );
}

/** One request as it was made and answered: its query, both bodies and, for a refusal, the error as sent. */
export function RequestPage({
  requestId,
  basePath,
  onNavigate,
}: {
  requestId: string;
  basePath: string;
  onNavigate?: (href: string) => void;
}) {
  const { data, loading, error, refetch } = useQuery<{ request: RecordedRequestWithBodies | null }>(REQUEST, {
    variables: { requestId },
  });
  const request = data?.request ?? null;
  return (
    <>
      <p>
        <a href={basePath} onClick={(event) => followInPage(event, onNavigate)}>
          All requests
        </a>
      </p>
      <h1>
        Request <code>{requestId}</code>
      </h1>
      <QueryState
        loading={loading}
        error={error}
        empty={!request}
        emptyText="No request of the last 7 days has this id."
        retry={() => void refetch()}
      >
        {request ? (
          <>
            <dl className="bo-fields">
              <dt>Time</dt>
              <dd>{formatDate(request.createdAt)}</dd>
              <dt>Request</dt>
              <dd>
                <code>
                  {request.method} {request.path}
                  {request.query ? `?${request.query}` : ''}
                </code>
              </dd>
              <dt>Operation</dt>
              <dd>{request.operationId ?? 'none (unknown path)'}</dd>
              <dt>Status</dt>
              <dd>{request.status}</dd>
              <dt>Duration</dt>
              <dd>{request.durationMs.toFixed(1)} ms</dd>
              <dt>Key</dt>
              <dd>
                <code>{request.apiKeyPrefix}</code>
              </dd>
            </dl>
            <Body label="Request body" text={request.requestBody} truncated={request.requestBodyTruncated} />
            <Body
              label={request.status >= 400 ? 'Error as sent' : 'Answer body'}
              text={request.responseBody}
              truncated={request.responseBodyTruncated}
            />
          </>
        ) : null}
      </QueryState>
    </>
  );
}

/** The requests made with the provider's keys over the last 7 days, newest first, filtered. */
export function Requests({
  initial,
  basePath,
  onNavigate,
  withProvider = false,
}: {
  initial: RequestFilters;
  basePath: string;
  onNavigate?: (href: string) => void;
  /** Staff: a provider filter and a provider column. */
  withProvider?: boolean;
}) {
  const [filters, setFilters] = useState(initial);
  const set = (name: keyof RequestFilters) => (value: string) => setFilters({ ...filters, [name]: value });
  const filter = {
    ...(withProvider && /^\d+$/.test(filters.providerId.trim()) ? { providerId: Number(filters.providerId) } : {}),
    statusClass: orNull(filters.statusClass),
    operationId: orNull(filters.operationId),
    path: orNull(filters.path),
    requestId: orNull(filters.requestId),
  };
  const { data, loading, error, refetch, fetchMore } = useQuery<{ requests: RecordedRequest[] }>(REQUESTS, {
    variables: { filter, page: { limit: PAGE } },
    notifyOnNetworkStatusChange: true,
  });
  const requests = data?.requests ?? [];
  return (
    <>
      <h1>Requests</h1>
      <form className="bo-filters" onSubmit={(event) => event.preventDefault()}>
        {withProvider ? (
          <label>
            Provider id
            <input
              inputMode="numeric"
              value={filters.providerId}
              onChange={(event) => set('providerId')(event.target.value)}
            />
          </label>
        ) : null}
        <label>
          Status
          <select value={filters.statusClass} onChange={(event) => set('statusClass')(event.target.value)}>
            <option value="">Any</option>
            <option value="2xx">2xx</option>
            <option value="4xx">4xx</option>
            <option value="5xx">5xx</option>
          </select>
        </label>
        <label>
          Operation
          <input
            value={filters.operationId}
            placeholder="PostEventOffer"
            onChange={(event) => set('operationId')(event.target.value)}
          />
        </label>
        <label>
          Path
          <input value={filters.path} placeholder="/public/" onChange={(event) => set('path')(event.target.value)} />
        </label>
        <label>
          Request id
          <input value={filters.requestId} onChange={(event) => set('requestId')(event.target.value)} />
        </label>
      </form>
      <QueryState
        loading={loading}
        error={error}
        empty={requests.length === 0}
        emptyText="No request of the last 7 days matches."
        retry={() => void refetch()}
      >
        <table className="bo-table">
          <caption className="bo-visually-hidden">Requests</caption>
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Method</th>
              <th scope="col">Path</th>
              <th scope="col">Status</th>
              <th scope="col">Duration</th>
              <th scope="col">Request id</th>
              <th scope="col">Key</th>
              {withProvider ? <th scope="col">Provider</th> : null}
            </tr>
          </thead>
          <tbody>
            {requests.map((request) => (
              <tr key={request.id}>
                <td>{formatDate(request.createdAt)}</td>
                <td>{request.method}</td>
                <td className="bo-url">
                  {request.path}
                  {request.query ? `?${request.query}` : ''}
                </td>
                <td>{request.status}</td>
                <td>{request.durationMs.toFixed(1)} ms</td>
                <td>
                  <a
                    href={`${basePath}/${encodeURIComponent(request.requestId)}`}
                    onClick={(event) => followInPage(event, onNavigate)}
                  >
                    {request.requestId}
                  </a>
                </td>
                <td>
                  <code>{request.apiKeyPrefix}</code>
                </td>
                {withProvider ? (
                  <td>
                    <a href={`/backoffice/providers/${request.providerId}`}>Provider {request.providerId}</a>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
        <LoadOlder
          rows={requests}
          pageSize={PAGE}
          older={(beforeId) => void fetchMore({ variables: { filter, page: { before: beforeId, limit: PAGE } } })}
        />
      </QueryState>
    </>
  );
}
