import { gql, useMutation, useQuery } from '@apollo/client';
import { useState } from 'react';
import { ActionResult, formatDate, lastErrorOf, QueryState, LoadMore } from '../client/states.js';

const PAGE = 30;

const DELIVERIES = gql`
  query Deliveries($filter: DeliveryFilterInput, $page: PageInput) {
    deliveries(filter: $filter, page: $page) {
      id
      providerId
      bookingId
      action
      url
      status
      attempts
      lastStatusCode
      lastError
      nextAttemptAt
      createdAt
    }
  }
`;

const RETRY = gql`
  mutation RetryDelivery($id: Int!) {
    retryDelivery(id: $id) {
      id
      status
      nextAttemptAt
    }
  }
`;

interface Delivery {
  id: number;
  providerId: number;
  bookingId: number | null;
  action: string;
  url: string;
  status: string;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
}

const optionalId = (value: string) => (/^\d+$/.test(value.trim()) ? Number(value) : null);

/** Messages to providers: what was sent where, and what became of it; a failing one can be retried now. */
export function Messages({ initialProvider }: { initialProvider: string }) {
  const [provider, setProvider] = useState(initialProvider);
  const [booking, setBooking] = useState('');
  const [status, setStatus] = useState('');
  const filter = { providerId: optionalId(provider), bookingId: optionalId(booking), status: status || null };
  const { data, loading, error, refetch, fetchMore } = useQuery<{ deliveries: Delivery[] }>(DELIVERIES, {
    variables: { filter, page: { firstIndex: 1, limit: PAGE } },
    notifyOnNetworkStatusChange: true,
  });
  const [outcome, setOutcome] = useState<{ error?: string; done?: string }>({});
  const [retry] = useMutation(RETRY, {
    onError: (failure) => setOutcome({ error: failure.message }),
    // The worker sends it within a second: the list is read again after that.
    onCompleted: () => {
      setOutcome({ done: 'Sent again now.' });
      setTimeout(() => void refetch(), 1500);
    },
  });
  const deliveries = data?.deliveries ?? [];
  return (
    <>
      <h1>Messages</h1>
      <form className="bo-filters" onSubmit={(event) => event.preventDefault()}>
        <label>
          Provider id
          <input inputMode="numeric" value={provider} onChange={(event) => setProvider(event.target.value)} />
        </label>
        <label>
          Booking id
          <input inputMode="numeric" value={booking} onChange={(event) => setBooking(event.target.value)} />
        </label>
        <label>
          Status
          <select value={status} onChange={(event) => setStatus(event.target.value)}>
            <option value="">Any</option>
            <option value="PENDING">Pending</option>
            <option value="SENT">Sent</option>
            <option value="FAILED">Failed</option>
          </select>
        </label>
      </form>
      <ActionResult error={outcome.error} done={outcome.done} />
      <QueryState
        loading={loading}
        error={error}
        empty={deliveries.length === 0}
        emptyText="No message matches."
        retry={() => void refetch()}
      >
        <table className="bo-table">
          <caption className="bo-visually-hidden">Messages</caption>
          <thead>
            <tr>
              <th scope="col">Id</th>
              <th scope="col">Action</th>
              <th scope="col">Provider, booking</th>
              <th scope="col">URL</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">Last error</th>
              <th scope="col">Next attempt</th>
              <th scope="col">Retry</th>
            </tr>
          </thead>
          <tbody>
            {deliveries.map((delivery) => (
              <tr key={delivery.id}>
                <td>{delivery.id}</td>
                <td>{delivery.action}</td>
                <td>
                  <a href={`/backoffice/providers/${delivery.providerId}`}>Provider {delivery.providerId}</a>
                  {delivery.bookingId ? `, booking ${delivery.bookingId}` : ''}
                </td>
                <td className="bo-url">{delivery.url}</td>
                <td>{delivery.status}</td>
                <td>{delivery.attempts}</td>
                <td className="bo-error">{lastErrorOf(delivery)}</td>
                <td>{formatDate(delivery.nextAttemptAt)}</td>
                <td>
                  {delivery.status === 'SENT' ? null : (
                    <button
                      type="button"
                      className="bo-button"
                      onClick={() => void retry({ variables: { id: delivery.id } })}
                    >
                      Retry now <span className="bo-visually-hidden">message {delivery.id}</span>
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <LoadMore rows={deliveries} pageSize={PAGE} more={(page) => void fetchMore({ variables: { filter, page } })} />
      </QueryState>
    </>
  );
}
