import { gql, useMutation, useQuery } from '@apollo/client';
import { useState } from 'react';
import { ActionResult, formatDate, QueryState, LoadMore } from '../client/states.js';
import { useAllowed } from '../staffRoles.js';

const PAGE = 30;

const COUNTS = gql`
  query JobCounts {
    jobCounts {
      type
      status
      count
    }
  }
`;

const JOBS = gql`
  query Jobs($filter: JobFilter, $page: PageInput) {
    jobs(filter: $filter, page: $page) {
      id
      type
      status
      attempts
      maxAttempts
      runAt
      lastError
      createdAt
    }
  }
`;

const RETRY = gql`
  mutation RetryJob($id: Int!) {
    retryJob(id: $id) {
      id
      status
      attempts
      runAt
    }
  }
`;
const DISCARD = gql`
  mutation DiscardJob($id: Int!) {
    discardJob(id: $id) {
      id
      status
    }
  }
`;

interface JobRow {
  id: number;
  type: string;
  status: string;
  attempts: number;
  maxAttempts: number;
  runAt: string;
  lastError: string | null;
  createdAt: string;
}

const STATUSES = ['pending', 'running', 'failed'] as const;

/** The job queue: counts by type and status, then the jobs of one status; a failed job is retried or discarded. */
export function Jobs() {
  const counts = useQuery<{ jobCounts: { type: string; status: string; count: number }[] }>(COUNTS);
  const [status, setStatus] = useState<(typeof STATUSES)[number]>('failed');
  const [type, setType] = useState('');
  const filter = { status, type: type || null };
  const { data, loading, error, refetch, fetchMore } = useQuery<{ jobs: JobRow[] }>(JOBS, {
    variables: { filter, page: { firstIndex: 1, limit: PAGE } },
    notifyOnNetworkStatusChange: true,
  });
  const [outcome, setOutcome] = useState<{ error?: string; done?: string }>({});
  const options = {
    refetchQueries: ['Jobs', 'JobCounts'],
    onError: (failure: Error) => setOutcome({ error: failure.message }),
  };
  const [retry] = useMutation(RETRY, { ...options, onCompleted: () => setOutcome({ done: 'Job queued again.' }) });
  // Giving a job up for good is an admin's decision (decision 031); support retries.
  const mayDiscard = useAllowed('admin');
  const [discard] = useMutation(DISCARD, { ...options, onCompleted: () => setOutcome({ done: 'Job discarded.' }) });
  const types = [...new Set((counts.data?.jobCounts ?? []).map((count) => count.type))];
  const jobs = data?.jobs ?? [];
  return (
    <>
      <h1>Jobs</h1>
      <section aria-labelledby="by-type">
        <h2 id="by-type">By type</h2>
        <QueryState
          loading={counts.loading}
          error={counts.error}
          empty={types.length === 0}
          emptyText="No job yet."
          retry={() => void counts.refetch()}
        >
          <table className="bo-table">
            <caption className="bo-visually-hidden">Jobs by type and status</caption>
            <thead>
              <tr>
                <th scope="col">Type</th>
                {STATUSES.map((name) => (
                  <th scope="col" key={name}>
                    {name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {types.map((name) => (
                <tr key={name}>
                  <th scope="row">{name}</th>
                  {STATUSES.map((state) => (
                    <td key={state}>
                      {counts.data?.jobCounts.find((count) => count.type === name && count.status === state)?.count ??
                        0}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </QueryState>
      </section>
      <section aria-labelledby="list">
        <h2 id="list">Jobs</h2>
        <form className="bo-filters" onSubmit={(event) => event.preventDefault()}>
          <label>
            Status
            <select value={status} onChange={(event) => setStatus(event.target.value as (typeof STATUSES)[number])}>
              {STATUSES.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </label>
          <label>
            Type
            <select value={type} onChange={(event) => setType(event.target.value)}>
              <option value="">Any</option>
              {types.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </label>
        </form>
        <ActionResult error={outcome.error} done={outcome.done} />
        <QueryState
          loading={loading}
          error={error}
          empty={jobs.length === 0}
          emptyText={`No ${status} job.`}
          retry={() => void refetch()}
        >
          <table className="bo-table">
            <caption className="bo-visually-hidden">Jobs</caption>
            <thead>
              <tr>
                <th scope="col">Id</th>
                <th scope="col">Type</th>
                <th scope="col">Attempts</th>
                <th scope="col">Due</th>
                <th scope="col">Error</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {jobs.map((job) => (
                <tr key={job.id}>
                  <td>{job.id}</td>
                  <td>{job.type}</td>
                  <td>
                    {job.attempts} of {job.maxAttempts}
                  </td>
                  <td>{formatDate(job.runAt)}</td>
                  <td className="bo-error">{job.lastError ?? '—'}</td>
                  <td>
                    {job.status === 'failed' ? (
                      <div className="bo-actions">
                        <button
                          type="button"
                          className="bo-button"
                          onClick={() => void retry({ variables: { id: job.id } })}
                        >
                          Retry <span className="bo-visually-hidden">job {job.id}</span>
                        </button>
                        {mayDiscard ? (
                          <button
                            type="button"
                            className="bo-button bo-button--danger"
                            onClick={() => void discard({ variables: { id: job.id } })}
                          >
                            Discard <span className="bo-visually-hidden">job {job.id}</span>
                          </button>
                        ) : null}
                      </div>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <LoadMore rows={jobs} pageSize={PAGE} more={(page) => void fetchMore({ variables: { filter, page } })} />
        </QueryState>
      </section>
    </>
  );
}
