import { gql, useMutation, useQuery } from '@apollo/client';
import { useState } from 'react';
import { ActionResult, QueryState, ShownOnce } from '../../backoffice/client/states.js';
import { type ApiKeyRow, ApiKeyTable, IssueKeyForm } from '../../backoffice/screens/ApiKeyTable.js';
import { CONSOLE_PATH } from '../navigation.js';

const MY_KEYS = gql`
  query MyApiKeys {
    myApiKeys {
      id
      prefix
      label
      createdAt
      lastUsedAt
      revokedAt
    }
  }
`;

const ISSUE = gql`
  mutation IssueMyApiKey($label: String) {
    issueMyApiKey(label: $label) {
      key
      apiKey {
        id
      }
    }
  }
`;

const REVOKE = gql`
  mutation RevokeMyApiKey($id: Int!) {
    revokeMyApiKey(id: $id) {
      id
      revokedAt
    }
  }
`;

/** The provider's own keys: when each was issued and last used; issue one (shown once), revoke one. */
export function Keys({ sessionKeyPrefix }: { sessionKeyPrefix: string }) {
  const { data, loading, error, refetch } = useQuery<{ myApiKeys: ApiKeyRow[] }>(MY_KEYS);
  const [outcome, setOutcome] = useState<{ error?: string; done?: string }>({});
  const [shown, setShown] = useState<string | null>(null);
  const onError = (failure: Error) => setOutcome({ error: failure.message });
  const [issueKey, issuing] = useMutation<{ issueMyApiKey: { key: string } }>(ISSUE, {
    refetchQueries: ['MyApiKeys'],
    onError,
  });
  const [revokeKey] = useMutation(REVOKE, { onError });

  const issue = async (label: string | null) => {
    const result = await issueKey({ variables: { label } });
    if (!result.data) return false;
    setShown(result.data.issueMyApiKey.key);
    setOutcome({ done: 'Key issued.' });
    return true;
  };
  const revoke = async (key: ApiKeyRow) => {
    const own = key.prefix === sessionKeyPrefix;
    // The session ends with its key: say so before, rather than find the sign-in page after.
    if (own && !confirm(`${key.prefix} is the key you signed in with: revoking it signs you out. Revoke it?`)) return;
    const result = await revokeKey({ variables: { id: key.id } });
    if (!result.data) return;
    if (own) {
      location.assign(`${CONSOLE_PATH}/sign-in`);
      return;
    }
    setOutcome({ done: `Key ${key.prefix} revoked: it is refused from now on.` });
  };

  const keys = data?.myApiKeys ?? [];
  return (
    <>
      <h1>Keys</h1>
      <p className="bo-hint">
        Each key acts for your provider on the REST API and on /graphql. A key is shown once, when it is issued; we keep
        only its prefix and a hash.
      </p>
      <ActionResult error={outcome.error} done={outcome.done} />
      {shown ? <ShownOnce label="New API key" value={shown} /> : null}
      <QueryState
        loading={loading}
        error={error}
        empty={keys.length === 0}
        emptyText="No key."
        retry={() => void refetch()}
      >
        <ApiKeyTable
          keys={keys}
          onRevoke={(key) => void revoke(key)}
          marked={{ prefix: sessionKeyPrefix, note: 'this session' }}
        />
      </QueryState>
      <IssueKeyForm busy={issuing.loading} onIssue={issue} />
    </>
  );
}
