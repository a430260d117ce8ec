import { gql, useMutation, useQuery } from '@apollo/client';
import { Fragment, useEffect, useState } from 'react';
import {
  ActionResult,
  CodeText,
  formatDate,
  lastErrorOf,
  LoadOlder,
  QueryState,
} from '../../backoffice/client/states.js';

const PAGE = 30;

/** What a row of the list shows. */
const MESSAGE_LINE = gql`
  fragment MessageLine on ProviderMessage {
    id
    kind
    action
    url
    status
    attempts
    lastStatusCode
    lastError
    isTest
    synchronous
    bookingId
    createdAt
    sentAt
    nextAttemptAt
  }
`;

const MY_MESSAGES = gql`
  query MyMessages($filter: MessageFilterInput, $beforeId: Int, $limit: Int) {
    myMessages(filter: $filter, beforeId: $beforeId, limit: $limit) {
      ...MessageLine
    }
  }
  ${MESSAGE_LINE}
`;

const MY_MESSAGE = gql`
  query MyMessage($id: Int!) {
    myMessage(id: $id) {
      ...MessageLine
      body
      deliveryAttempts {
        id
        number
        attemptedAt
        statusCode
        answerBody
        answerTruncated
        error
        durationMs
        requestHeaders
        signature
      }
    }
  }
  ${MESSAGE_LINE}
`;

const RESEND = gql`
  mutation ResendMessage($id: Int!) {
    resendMessage(id: $id) {
      ...MessageLine
    }
  }
  ${MESSAGE_LINE}
`;

export interface MessageLine {
  id: number;
  kind: string;
  action: string;
  url: string;
  status: string;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  isTest: boolean;
  synchronous: boolean;
  bookingId: number | null;
  createdAt: string;
  sentAt: string | null;
  nextAttemptAt: string | null;
}

export interface MessageAttempt {
  id: number;
  number: number;
  attemptedAt: string;
  statusCode: number | null;
  answerBody: string | null;
  answerTruncated: boolean;
  error: string | null;
  durationMs: number;
  requestHeaders: string[];
  signature: string | null;
}

const KIND_LABELS: Record<string, string> = {
  BOOKING_NOTIFICATION: 'Notification',
  TICKET_BOOKING: 'Ticket booking',
  TICKET_CANCELLATION: 'Ticket cancellation',
};

const orNull = (value: string) => (value.trim() === '' ? null : value.trim());

/** What a message is, in a few words: its kind, its action, whether it was a test. */
export function messageTitle(message: MessageLine): string {
  const kind = KIND_LABELS[message.kind] ?? message.kind;
  return `${kind} ${message.action}${message.isTest ? ' (test)' : ''}`;
}

/** Whether Resend applies: not delivered yet, and not a ticketing call made while a request waited. */
const resendable = (message: MessageLine) => message.status !== 'SENT' && !message.synchronous;

/** One try at a message: what was sent (headers, signature), what came back, or why nothing did. */
function AttemptView({ attempt }: { attempt: MessageAttempt }) {
  return (
    <section aria-label={`Attempt ${attempt.number}`} className="bo-card">
      <h4>
        Attempt {attempt.number}, {formatDate(attempt.attemptedAt)}
      </h4>
      <dl className="bo-fields">
        <dt>Answer</dt>
        <dd>{attempt.statusCode === null ? 'none' : `HTTP ${attempt.statusCode}`}</dd>
        <dt>Error</dt>
        <dd className={attempt.error ? 'bo-error' : undefined}>{attempt.error ?? 'none: delivered'}</dd>
        <dt>Duration</dt>
        <dd>{attempt.durationMs} ms</dd>
        <dt>Signature</dt>
        <dd>
          <code>{attempt.signature ?? '—'}</code>
        </dd>
      </dl>
      <h5>Headers sent</h5>
      <CodeText text={attempt.requestHeaders.join('\n')} />
      <h5>Answer body</h5>
      {attempt.answerTruncated ? <p className="bo-hint">Longer: cut here.</p> : null}
      <CodeText text={attempt.answerBody} />
    </section>
  );
}

type OpenedMessage = MessageLine & { body: string; deliveryAttempts: MessageAttempt[] };

/** How often a message waiting for its next attempt is read again, while its screen shows it. */
const PENDING_POLL_MS = 1_000;

/**
 * A message opened: the payload exactly as sent, then every attempt; with `summary`, what it is
 * and where it stands first. A pending one is read again until it is sent or fails.
 */
export function MessageDetails({ id, summary = false }: { id: number; summary?: boolean }) {
  const { data, loading, error, refetch, startPolling, stopPolling } = useQuery<{ myMessage: OpenedMessage }>(
    MY_MESSAGE,
    { variables: { id } },
  );
  const message = data?.myMessage;
  const status = message?.status;
  useEffect(() => {
    if (status !== 'PENDING') return;
    startPolling(PENDING_POLL_MS);
    return stopPolling;
  }, [status, startPolling, stopPolling]);
  return (
    <QueryState loading={loading} error={error} empty={!message} emptyText="Not found." retry={() => void refetch()}>
      {message ? (
        <>
          {summary ? (
            <dl className="bo-fields">
              <dt>Message</dt>
              <dd>
                {messageTitle(message)}, id {message.id}
              </dd>
              <dt>Sent to</dt>
              <dd className="bo-url">{message.url}</dd>
              <dt>Status</dt>
              <dd>{message.status}</dd>
              <dt>Next attempt</dt>
              <dd>{formatDate(message.nextAttemptAt)}</dd>
            </dl>
          ) : null}
          <h3>Payload</h3>
          <CodeText text={message.body} />
          <h3>Attempts</h3>
          {message.deliveryAttempts.length === 0 ? (
            <p className="bo-empty">
              Not tried yet{message.nextAttemptAt ? `: due ${formatDate(message.nextAttemptAt)}` : ''}.
            </p>
          ) : (
            message.deliveryAttempts.map((attempt) => <AttemptView key={attempt.id} attempt={attempt} />)
          )}
        </>
      ) : null}
    </QueryState>
  );
}

/**
 * Every message the platform sent to the provider's URLs (notifications and ticketing calls,
 * provider and venue level), newest first; one opens on its payload and attempts; a failed one
 * can be sent again.
 */
export function Messages() {
  const [status, setStatus] = useState('');
  const [kind, setKind] = useState('');
  const [tests, setTests] = useState('');
  const [booking, setBooking] = useState('');
  const [open, setOpen] = useState<number | null>(null);
  const filter = {
    status: orNull(status),
    kind: orNull(kind),
    isTest: tests === '' ? null : tests === 'only',
    bookingId: /^\d+$/.test(booking.trim()) ? Number(booking) : null,
  };
  const { data, loading, error, refetch, fetchMore } = useQuery<{ myMessages: MessageLine[] }>(MY_MESSAGES, {
    variables: { filter, limit: PAGE },
    notifyOnNetworkStatusChange: true,
  });
  const [outcome, setOutcome] = useState<{ error?: string; done?: string }>({});
  const [resend] = useMutation(RESEND, {
    onError: (failure) => setOutcome({ error: failure.message }),
    // The worker sends it within a second: the list and the open message are read again after that.
    onCompleted: () => {
      setOutcome({ done: 'Queued to be sent again now.' });
      setTimeout(() => void refetch(), 1500);
    },
    refetchQueries: ['MyMessage'],
  });
  const messages = data?.myMessages ?? [];
  return (
    <>
      <h1>Messages</h1>
      <form className="bo-filters" onSubmit={(event) => event.preventDefault()}>
        <label>
          Status
          <select value={status} onChange={(event) => setStatus(event.target.value)}>
            <option value="">Any</option>
            <option value="PENDING">Pending</option>
            <option value="SENT">Sent</option>
            <option value="FAILED">Failed</option>
          </select>
        </label>
        <label>
          Kind
          <select value={kind} onChange={(event) => setKind(event.target.value)}>
            <option value="">Any</option>
            {Object.entries(KIND_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Test events
          <select value={tests} onChange={(event) => setTests(event.target.value)}>
            <option value="">Included</option>
            <option value="only">Only</option>
            <option value="none">Left out</option>
          </select>
        </label>
        <label>
          Booking id
          <input inputMode="numeric" value={booking} onChange={(event) => setBooking(event.target.value)} />
        </label>
      </form>
      <ActionResult error={outcome.error} done={outcome.done} />
      <QueryState
        loading={loading}
        error={error}
        empty={messages.length === 0}
        emptyText="No message matches. Messages appear here once a booking of yours is made or cancelled, or once you send a test event."
        retry={() => void refetch()}
      >
        <table className="bo-table">
          <caption className="bo-visually-hidden">Messages</caption>
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Message</th>
              <th scope="col">URL</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">Last error</th>
              <th scope="col">Next attempt</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {messages.map((message) => (
              <Fragment key={message.id}>
                <tr>
                  <td>{formatDate(message.createdAt)}</td>
                  <td>
                    {messageTitle(message)}
                    {message.bookingId ? <span className="bo-muted">, booking {message.bookingId}</span> : null}
                  </td>
                  <td className="bo-url">{message.url}</td>
                  <td>{message.status}</td>
                  <td>{message.attempts}</td>
                  <td className="bo-error">{lastErrorOf(message)}</td>
                  <td>{formatDate(message.nextAttemptAt)}</td>
                  <td className="bo-actions">
                    <button
                      type="button"
                      className="bo-button bo-button--quiet"
                      aria-expanded={open === message.id}
                      aria-controls={open === message.id ? `message-${message.id}` : undefined}
                      onClick={() => setOpen(open === message.id ? null : message.id)}
                    >
                      Details <span className="bo-visually-hidden">of message {message.id}</span>
                    </button>
                    {resendable(message) ? (
                      <button
                        type="button"
                        className="bo-button"
                        onClick={() => void resend({ variables: { id: message.id } })}
                      >
                        Resend <span className="bo-visually-hidden">message {message.id}</span>
                      </button>
                    ) : null}
                  </td>
                </tr>
                {open === message.id ? (
                  <tr id={`message-${message.id}`}>
                    <td colSpan={8}>
                      <MessageDetails id={message.id} />
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            ))}
          </tbody>
        </table>
        <LoadOlder
          rows={messages}
          pageSize={PAGE}
          older={(beforeId) => void fetchMore({ variables: { filter, beforeId, limit: PAGE } })}
        />
      </QueryState>
    </>
  );
}
