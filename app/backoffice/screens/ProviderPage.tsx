import { gql, useMutation, useQuery } from '@apollo/client';
import { useState } from 'react';
import { ActionResult, QueryState, ShownOnce } from '../client/states.js';
import { type ApiKeyRow, ApiKeyTable, IssueKeyForm } from './ApiKeyTable.js';
import { useAllowed } from '../staffRoles.js';

const PROVIDER = gql`
  query ProviderPage($id: Int!) {
    provider(id: $id) {
      id
      name
      isActive
      canManageIndividualOffers
      bookingUrl
      cancelUrl
      notificationUrl
      offerers {
        id
        name
        siren
      }
      venueLinks {
        venueId
        venueName
        siret
        isActive
        bookingUrl
        cancelUrl
        notificationUrl
      }
      apiKeys {
        id
        prefix
        label
        createdAt
        lastUsedAt
        revokedAt
      }
    }
  }
`;

const SET_ACTIVE = gql`
  mutation SetProviderActive($id: Int!, $isActive: Boolean!) {
    setProviderActive(providerId: $id, isActive: $isActive) {
      id
      isActive
    }
  }
`;
const SET_RIGHTS = gql`
  mutation SetIndividualOfferRights($id: Int!, $allowed: Boolean!) {
    setIndividualOfferRights(providerId: $id, allowed: $allowed) {
      id
      canManageIndividualOffers
    }
  }
`;
const ISSUE_KEY = gql`
  mutation IssueApiKey($id: Int!, $label: String) {
    issueApiKey(providerId: $id, label: $label) {
      key
      apiKey {
        id
        prefix
      }
    }
  }
`;
const REVOKE_KEY = gql`
  mutation RevokeApiKey($id: Int!) {
    revokeApiKey(id: $id) {
      id
      revokedAt
    }
  }
`;
const ROTATE_SECRET = gql`
  mutation RotateMessagingSecret($id: Int!) {
    rotateMessagingSecret(providerId: $id) {
      providerId
      secret
    }
  }
`;

interface ProviderDetails {
  id: number;
  name: string;
  isActive: boolean;
  canManageIndividualOffers: boolean;
  bookingUrl: string | null;
  cancelUrl: string | null;
  notificationUrl: string | null;
  offerers: { id: number; name: string; siren: string }[];
  venueLinks: {
    venueId: number;
    venueName: string;
    siret: string | null;
    isActive: boolean;
    bookingUrl: string | null;
    cancelUrl: string | null;
    notificationUrl: string | null;
  }[];
  apiKeys: ApiKeyRow[];
}

const url = (value: string | null) => value ?? '—';

/** One provider: what it is, its messaging URLs, its rights, its keys and its messaging secret. */
export function ProviderPage({ id }: { id: number }) {
  const { data, loading, error, refetch } = useQuery<{ provider: ProviderDetails }>(PROVIDER, { variables: { id } });
  const provider = data?.provider;
  return (
    <QueryState
      loading={loading}
      error={error}
      empty={!provider}
      emptyText="No such provider."
      retry={() => void refetch()}
    >
      {provider ? <ProviderDetailsView provider={provider} /> : null}
    </QueryState>
  );
}

function ProviderDetailsView({ provider }: { provider: ProviderDetails }) {
  const [outcome, setOutcome] = useState<{ error?: string; done?: string }>({});
  const [shown, setShown] = useState<{ label: string; value: string } | null>(null);
  const refetchQueries = ['ProviderPage'];
  const onError = (failure: Error) => setOutcome({ error: failure.message });
  const [setActive] = useMutation(SET_ACTIVE, { onError });
  const [setRights] = useMutation(SET_RIGHTS, { onError });
  const [issueKey, issuing] = useMutation<{ issueApiKey: { key: string } }>(ISSUE_KEY, { refetchQueries, onError });
  const [revokeKey] = useMutation(REVOKE_KEY, { refetchQueries, onError });
  const [rotate, rotating] = useMutation<{ rotateMessagingSecret: { secret: string } }>(ROTATE_SECRET, { onError });
  const variables = { id: provider.id };
  // Rights, activation and the messaging secret are an admin's (decision 031); support issues and revokes keys.
  const administers = useAllowed('admin');

  const issue = async (label: string | null) => {
    const result = await issueKey({ variables: { ...variables, label } });
    if (!result.data) return false;
    setShown({ label: 'New API key', value: result.data.issueApiKey.key });
    setOutcome({ done: 'Key issued.' });
    return true;
  };
  const rotateSecret = async () => {
    const result = await rotate({ variables });
    if (!result.data) return;
    setShown({ label: 'New messaging secret', value: result.data.rotateMessagingSecret.secret });
    setOutcome({ done: 'Messaging secret replaced: the old one no longer signs.' });
  };

  return (
    <>
      <h1>
        {provider.name} <span className="bo-muted">#{provider.id}</span>
      </h1>
      <ActionResult error={outcome.error} done={outcome.done} />
      {shown ? <ShownOnce label={shown.label} value={shown.value} /> : null}

      <section aria-labelledby="rights">
        <h2 id="rights">Status and rights</h2>
        <dl className="bo-fields">
          <dt>Active</dt>
          <dd>{provider.isActive ? 'Yes' : 'No (its keys get 403)'}</dd>
          <dt>Individual offers</dt>
          <dd>{provider.canManageIndividualOffers ? 'Allowed' : 'Withdrawn'}</dd>
        </dl>
        {administers ? (
          <div className="bo-actions">
            <button
              type="button"
              className="bo-button"
              onClick={() => void setActive({ variables: { ...variables, isActive: !provider.isActive } })}
            >
              {provider.isActive ? 'Deactivate provider' : 'Activate provider'}
            </button>
            <button
              type="button"
              className="bo-button"
              onClick={() =>
                void setRights({ variables: { ...variables, allowed: !provider.canManageIndividualOffers } })
              }
            >
              {provider.canManageIndividualOffers
                ? 'Withdraw individual-offer rights'
                : 'Grant individual-offer rights'}
            </button>
          </div>
        ) : null}
      </section>

      <section aria-labelledby="messaging">
        <h2 id="messaging">Messaging</h2>
        <dl className="bo-fields">
          <dt>Booking URL</dt>
          <dd>{url(provider.bookingUrl)}</dd>
          <dt>Cancellation URL</dt>
          <dd>{url(provider.cancelUrl)}</dd>
          <dt>Notification URL</dt>
          <dd>{url(provider.notificationUrl)}</dd>
        </dl>
        <p>
          <a href={`/backoffice/messages?provider=${provider.id}`}>Messages to this provider</a>
        </p>
        {administers ? (
          <button type="button" className="bo-button" disabled={rotating.loading} onClick={() => void rotateSecret()}>
            Rotate messaging secret
          </button>
        ) : null}
      </section>

      <section aria-labelledby="keys">
        <h2 id="keys">API keys</h2>
        <ApiKeyTable
          keys={provider.apiKeys}
          onRevoke={(key) => {
            void revokeKey({ variables: { id: key.id } }).then((result) => {
              if (result.data) setOutcome({ done: `Key ${key.prefix} revoked.` });
            });
          }}
        />
        <IssueKeyForm busy={issuing.loading} onIssue={issue} />
      </section>

      <section aria-labelledby="offerers">
        <h2 id="offerers">Offerers</h2>
        {provider.offerers.length === 0 ? (
          <p className="bo-empty">No offerer.</p>
        ) : (
          <ul>
            {provider.offerers.map((offerer) => (
              <li key={offerer.id}>
                {offerer.name} (SIREN {offerer.siren})
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="venues">
        <h2 id="venues">Venues</h2>
        {provider.venueLinks.length === 0 ? (
          <p className="bo-empty">No venue.</p>
        ) : (
          <table className="bo-table">
            <caption className="bo-visually-hidden">Venues</caption>
            <thead>
              <tr>
                <th scope="col">Venue</th>
                <th scope="col">SIRET</th>
                <th scope="col">Linked</th>
                <th scope="col">Its own messaging URLs</th>
              </tr>
            </thead>
            <tbody>
              {provider.venueLinks.map((link) => (
                <tr key={link.venueId}>
                  <td>
                    {link.venueName} <span className="bo-muted">#{link.venueId}</span>
                  </td>
                  <td>{link.siret ?? 'Digital'}</td>
                  <td>{link.isActive ? 'Yes' : 'No'}</td>
                  <td>
                    {[link.bookingUrl, link.cancelUrl, link.notificationUrl].some(Boolean)
                      ? [link.bookingUrl, link.cancelUrl, link.notificationUrl].map(url).join(' · ')
                      : 'The provider’s'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
