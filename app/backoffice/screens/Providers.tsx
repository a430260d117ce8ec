import { gql, useQuery } from '@apollo/client';
import { type FormEvent, useState } from 'react';
import { QueryState, LoadMore } from '../client/states.js';

const PAGE = 20;

const PROVIDERS = gql`
  query Providers($search: String, $page: PageInput) {
    providers(search: $search, page: $page) {
      id
      name
      isActive
    }
  }
`;

interface ProviderRow {
  id: number;
  name: string;
  isActive: boolean;
}

/** Providers by name or SIREN, each leading to its page. */
export function Providers({ onNavigate }: { onNavigate: (href: string) => void }) {
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState<string | null>(null);
  const { data, loading, error, refetch, fetchMore } = useQuery<{ providers: ProviderRow[] }>(PROVIDERS, {
    variables: { search, page: { firstIndex: 1, limit: PAGE } },
    notifyOnNetworkStatusChange: true,
  });
  const providers = data?.providers ?? [];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSearch(typed.trim() || null);
  };
  return (
    <>
      <h1>Providers</h1>
      <form role="search" className="bo-filters" onSubmit={submit}>
        <label>
          Name or SIREN
          <input type="search" value={typed} maxLength={140} onChange={(event) => setTyped(event.target.value)} />
        </label>
        <button type="submit" className="bo-button">
          Search
        </button>
      </form>
      <QueryState
        loading={loading}
        error={error}
        empty={providers.length === 0}
        emptyText={search ? `No provider matches “${search}”.` : 'No provider yet.'}
        retry={() => void refetch()}
      >
        <table className="bo-table">
          <caption className="bo-visually-hidden">Providers</caption>
          <thead>
            <tr>
              <th scope="col">Id</th>
              <th scope="col">Name</th>
              <th scope="col">Active</th>
            </tr>
          </thead>
          <tbody>
            {providers.map((provider) => (
              <tr key={provider.id}>
                <td>{provider.id}</td>
                <td>
                  <a
                    href={`/backoffice/providers/${provider.id}`}
                    onClick={(event) => {
                      event.preventDefault();
                      onNavigate(`/backoffice/providers/${provider.id}`);
                    }}
                  >
                    {provider.name}
                  </a>
                </td>
                <td>{provider.isActive ? 'Yes' : 'No'}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <LoadMore rows={providers} pageSize={PAGE} more={(page) => void fetchMore({ variables: { search, page } })} />
      </QueryState>
    </>
  );
}
