import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import type { BackOfficeHandle } from '../backoffice/context.js';
import { requireStaff } from '../backoffice/guard.server.js';

/** GraphiQL, for staff and the authors of internal tools: a browser's GET of /graphql (server/app.ts). */
export const handle: BackOfficeHandle = { backOffice: 'graphiql' };

export const meta: MetaFunction = () => [{ title: 'GraphiQL | Back office' }];

export function loader({ request, context }: LoaderFunctionArgs) {
  requireStaff(context, request);
  return null;
}

export default function Graphiql() {
  return (
    <div id="graphiql" className="graphiql-host">
      <p role="status">Loading GraphiQL…</p>
    </div>
  );
}
