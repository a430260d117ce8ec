import type { ApolloError } from '@apollo/client';
import type { ReactNode } from 'react';

/** Loading, error and empty states, alike on every screen. */
export function QueryState({
  loading,
  error,
  empty,
  emptyText,
  retry,
  children,
}: {
  loading: boolean;
  error: ApolloError | undefined;
  empty: boolean;
  emptyText: string;
  retry: () => void;
  children: ReactNode;
}) {
  if (error) {
    return (
      <div role="alert" className="bo-alert">
        <p>Could not load: {error.message}</p>
        <button type="button" className="bo-button" onClick={retry}>
          Retry
        </button>
      </div>
    );
  }
  if (loading && empty) {
    return (
      <p role="status" className="bo-status">
        Loading…
      </p>
    );
  }
  if (empty) return <p className="bo-empty">{emptyText}</p>;
  return <>{children}</>;
}

/** What an action ended with, read out to screen readers. */
export function ActionResult({ error, done }: { error?: string | null; done?: string | null }) {
  if (error)
    return (
      <p role="alert" className="bo-alert">
        {error}
      </p>
    );
  return (
    <p role="status" className="bo-done">
      {done ?? ''}
    </p>
  );
}

/** Why the last try at a message failed, with the status it answered; a dash when it did not fail. */
export function lastErrorOf(message: { lastStatusCode: number | null; lastError: string | null }): string {
  if (!message.lastError) return '—';
  return message.lastStatusCode ? `HTTP ${message.lastStatusCode}: ${message.lastError}` : message.lastError;
}

export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  return new Date(value).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
}

/** The id after the last of a page, where the next page starts. */
export function nextIndex(rows: readonly { id: number }[]): number {
  return rows.length === 0 ? 1 : rows[rows.length - 1].id + 1;
}

/** The next page, offered when the last one came back full; `more` is given the page to ask for. */
export function LoadMore({
  rows,
  pageSize,
  disabled,
  more,
}: {
  rows: readonly { id: number }[];
  pageSize: number;
  disabled?: boolean;
  more: (page: { firstIndex: number; limit: number }) => void;
}) {
  if (rows.length === 0 || rows.length % pageSize !== 0) return null;
  return (
    <button
      type="button"
      className="bo-button bo-button--quiet"
      disabled={disabled}
      onClick={() => more({ firstIndex: nextIndex(rows), limit: pageSize })}
    >
      Load more
    </button>
  );
}

/**
 * The next page of a list read newest first, offered when the last one came back full; `older` is
 * given the id of the oldest row shown, the one the next page ends before.
 */
export function LoadOlder({
  rows,
  pageSize,
  older,
}: {
  rows: readonly { id: number }[];
  pageSize: number;
  older: (beforeId: number) => void;
}) {
  if (rows.length === 0 || rows.length % pageSize !== 0) return null;
  return (
    <button type="button" className="bo-button bo-button--quiet" onClick={() => older(rows[rows.length - 1].id)}>
      Load older
    </button>
  );
}

/** A secret shown once: selectable, with a copy button. */
export function ShownOnce({ label, value }: { label: string; value: string }) {
  return (
    <div className="bo-secret" role="status">
      <p>
        <strong>{label}</strong> — shown this once: copy it now.
      </p>
      <code data-testid="shown-once">{value}</code>
      <button
        type="button"
        className="bo-button"
        onClick={() => {
          void navigator.clipboard?.writeText(value);
        }}
      >
        Copy
      </button>
    </div>
  );
}

/** A JSON text indented for reading; anything else as it came. */
function readable(text: string | null): string {
  if (text === null || text === '') return '(none)';
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** A body as it was sent or answered, in a block a keyboard can scroll. */
export function CodeText({ text }: { text: string | null }) {
  return (
    <pre className="bo-code" tabIndex={0}>
      <code>{readable(text)}</code>
    </pre>
  );
}
