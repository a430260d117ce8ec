import { GraphiQL, type GraphiQLProps } from 'graphiql';
import 'graphiql/graphiql.css';
import { createRoot } from 'react-dom/client';

/**
 * GraphiQL on /graphql, from this server's own assets: it calls /graphql with the back-office
 * session (the cookie, and the header its CSRF prevention asks for), never with a key in the page.
 */
const fetcher: GraphiQLProps['fetcher'] = async (params) => {
  const response = await fetch('/graphql', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', 'apollo-require-preflight': 'true' },
    body: JSON.stringify(params),
  });
  return (await response.json()) as Record<string, unknown>;
};

const host = document.getElementById('graphiql');
if (host) {
  host.textContent = '';
  createRoot(host).render(
    <GraphiQL fetcher={fetcher} defaultQuery={'{\n  jobCounts {\n    type\n    status\n    count\n  }\n}\n'} />,
  );
}
