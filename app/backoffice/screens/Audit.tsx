import { gql, useQuery } from '@apollo/client';
import { useState } from 'react';
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES } from '../../../graphql/shared/auditVocabulary.js';
import { formatDate, LoadOlder, QueryState } from '../client/states.js';

const PAGE = 50;

/** Where the same entries download as CSV (server/http/auditCsv.ts), with the same filters. */
const CSV_PATH = '/backoffice/audit.csv';

const ENTRIES = gql`
  query AuditEntries($filter: AuditEntryFilter, $page: AuditEntryPage) {
    auditEntries(filter: $filter, page: $page) {
      id
      createdAt
      actorKind
      actorKeyPrefix
      actorLabel
      actorSubject
      actorEmail
      action
      targetType
      targetId
      beforeValues
      afterValues
      requestId
    }
  }
`;

interface AuditRow {
  id: number;
  createdAt: string;
  actorKind: string;
  actorKeyPrefix: string | null;
  actorLabel: string | null;
  actorSubject: string | null;
  actorEmail: string | null;
  action: string;
  targetType: string;
  targetId: string;
  beforeValues: string | null;
  afterValues: string | null;
  requestId: string | null;
}

export interface AuditFilters {
  actor: string;
  action: string;
  targetType: string;
  targetId: string;
  /** Days, as a date field gives them (YYYY-MM-DD, UTC): from the start of `from` to the end of `to`. */
  from: string;
  to: string;
}

const FILTER_NAMES = ['actor', 'action', 'targetType', 'targetId', 'from', 'to'] as const;

/** The filters a URL of the screen carries (`?action=api_key.revoked&targetId=12`). */
export function auditFiltersOf(search: string): AuditFilters {
  const params = new URLSearchParams(search);
  const filters = {} as AuditFilters;
  for (const name of FILTER_NAMES) filters[name] = params.get(name) ?? '';
  return filters;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The start of a day (UTC), or of the day after it: a period's bounds as the graph reads them. */
function dayStart(day: string, after = false): string | null {
  if (!DAY.test(day)) return null;
  const start = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(start.getTime())) return null;
  return new Date(start.getTime() + (after ? DAY_MS : 0)).toISOString();
}

/** The filter as the graph and the CSV export take it: blank fields left out. */
function filterOf(filters: AuditFilters): Record<string, string> {
  const filter: Record<string, string> = {};
  for (const name of ['actor', 'action', 'targetType', 'targetId'] as const) {
    if (filters[name].trim() !== '') filter[name] = filters[name].trim();
  }
  const from = dayStart(filters.from);
  const to = dayStart(filters.to, true);
  if (from) filter.from = from;
  if (to) filter.to = to;
  return filter;
}

function whoOf(entry: AuditRow) {
  if (entry.actorKind === 'person') return <>{entry.actorEmail ?? entry.actorSubject}</>;
  return (
    <>
      <code>{entry.actorKeyPrefix}</code>
      {entry.actorLabel ? <span className="bo-hint"> ({entry.actorLabel})</span> : null}
    </>
  );
}

function Values({ text }: { text: string | null }) {
  return text ? <code className="bo-values">{text}</code> : <>—</>;
}

/** Every staff action, newest first, filtered by who, what, on what and when; exported as CSV with the same filters. */
export function Audit({ initial }: { initial: AuditFilters }) {
  const [filters, setFilters] = useState(initial);
  const set = (name: keyof AuditFilters) => (value: string) => setFilters({ ...filters, [name]: value });
  const filter = filterOf(filters);
  const { data, loading, error, refetch, fetchMore } = useQuery<{ auditEntries: AuditRow[] }>(ENTRIES, {
    variables: { filter, page: { limit: PAGE } },
    notifyOnNetworkStatusChange: true,
  });
  const entries = data?.auditEntries ?? [];
  const query = new URLSearchParams(filter).toString();
  return (
    <>
      <h1>Audit trail</h1>
      <p className="bo-hint">Every action of the staff, as it was taken. Entries are never changed nor deleted.</p>
      <form className="bo-filters" onSubmit={(event) => event.preventDefault()}>
        <label>
          Who
          <input
            value={filters.actor}
            placeholder="key prefix or e-mail"
            onChange={(event) => set('actor')(event.target.value)}
          />
        </label>
        <label>
          Action
          <select value={filters.action} onChange={(event) => set('action')(event.target.value)}>
            <option value="">Any</option>
            {AUDIT_ACTIONS.map((action) => (
              <option key={action} value={action}>
                {action}
              </option>
            ))}
          </select>
        </label>
        <label>
          Target
          <select value={filters.targetType} onChange={(event) => set('targetType')(event.target.value)}>
            <option value="">Any</option>
            {AUDIT_TARGET_TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </label>
        <label>
          Target id
          <input
            inputMode="numeric"
            value={filters.targetId}
            onChange={(event) => set('targetId')(event.target.value)}
          />
        </label>
        <label>
          From (UTC)
          <input type="date" value={filters.from} onChange={(event) => set('from')(event.target.value)} />
        </label>
        <label>
          To (UTC)
          <input type="date" value={filters.to} onChange={(event) => set('to')(event.target.value)} />
        </label>
      </form>
      <p>
        <a className="bo-button bo-button--quiet" href={query ? `${CSV_PATH}?${query}` : CSV_PATH} download>
          Export as CSV
        </a>
      </p>
      <QueryState
        loading={loading}
        error={error}
        empty={entries.length === 0}
        emptyText="No staff action matches."
        retry={() => void refetch()}
      >
        <table className="bo-table">
          <caption className="bo-visually-hidden">Audit trail</caption>
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Who</th>
              <th scope="col">Action</th>
              <th scope="col">Target</th>
              <th scope="col">Before</th>
              <th scope="col">After</th>
              <th scope="col">Request id</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id}>
                <td>{formatDate(entry.createdAt)}</td>
                <td>{whoOf(entry)}</td>
                <td>{entry.action}</td>
                <td>
                  {entry.targetType} {entry.targetId}
                </td>
                <td className="bo-url">
                  <Values text={entry.beforeValues} />
                </td>
                <td className="bo-url">
                  <Values text={entry.afterValues} />
                </td>
                <td>{entry.requestId ? <code>{entry.requestId}</code> : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <LoadOlder
          rows={entries}
          pageSize={PAGE}
          older={(beforeId) => void fetchMore({ variables: { filter, page: { before: beforeId, limit: PAGE } } })}
        />
      </QueryState>
    </>
  );
}
