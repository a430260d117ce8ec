import { type FormEvent, useState } from 'react';
import { formatDate } from '../client/states.js';

export interface ApiKeyRow {
  id: number;
  prefix: string;
  label: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** A provider's keys, alike in the back office and in the provider's own console: revoke one. */
export function ApiKeyTable({
  keys,
  onRevoke,
  marked,
}: {
  keys: readonly ApiKeyRow[];
  onRevoke: (key: ApiKeyRow) => void;
  /** A key to point out (the console's: the one its session was opened with). */
  marked?: { prefix: string; note: string };
}) {
  if (keys.length === 0) return <p className="bo-empty">No key yet.</p>;
  return (
    <table className="bo-table">
      <caption className="bo-visually-hidden">API keys</caption>
      <thead>
        <tr>
          <th scope="col">Prefix</th>
          <th scope="col">Label</th>
          <th scope="col">Issued</th>
          <th scope="col">Last used</th>
          <th scope="col">Revoked</th>
          <th scope="col">Action</th>
        </tr>
      </thead>
      <tbody>
        {keys.map((key) => (
          <tr key={key.id}>
            <td>
              <code>{key.prefix}</code>
              {marked?.prefix === key.prefix ? <span className="bo-muted"> ({marked.note})</span> : null}
            </td>
            <td>{key.label ?? '—'}</td>
            <td>{formatDate(key.createdAt)}</td>
            <td>{key.lastUsedAt ? formatDate(key.lastUsedAt) : 'Never'}</td>
            <td>{key.revokedAt ? formatDate(key.revokedAt) : 'No'}</td>
            <td>
              {key.revokedAt ? null : (
                <button type="button" className="bo-button bo-button--danger" onClick={() => onRevoke(key)}>
                  Revoke <span className="bo-visually-hidden">{key.prefix}</span>
                </button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Issues a key with an optional label; the caller shows the key, once. */
export function IssueKeyForm({
  busy,
  onIssue,
}: {
  busy: boolean;
  onIssue: (label: string | null) => Promise<boolean>;
}) {
  const [label, setLabel] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await onIssue(label.trim() || null)) setLabel('');
  };
  return (
    <form className="bo-filters" onSubmit={(event) => void submit(event)}>
      <label>
        Label of the new key
        <input value={label} maxLength={140} onChange={(event) => setLabel(event.target.value)} />
      </label>
      <button type="submit" className="bo-button" disabled={busy}>
        Issue a key
      </button>
    </form>
  );
}
