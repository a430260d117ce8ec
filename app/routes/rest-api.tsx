import type { LoaderFunctionArgs } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { loadOrFail } from '../loadFailure.js';
import { referenceOutline } from '../reference/outline.js';
import { pageMeta, routeMeta } from '../meta.js';

export function loader({ context }: LoaderFunctionArgs) {
  return loadOrFail('The API reference could not be loaded.', () => {
    const document = context.portal.openApiDocument;
    return { title: document.info.title, version: document.info.version, tags: referenceOutline(document) };
  });
}

export const meta = routeMeta(() => pageMeta('REST API', 'Every operation of the provider REST API, from the OpenAPI 3.1 document the server generates.'));

/** First version of the reference: every operation by tag, with the deep-link anchors of the usual format. */
export default function RestApi() {
  const { title, version, tags } = useLoaderData<typeof loader>();
  return (
    <div className="doc-layout reference">
      <nav className="sidebar" aria-label="Operations">
        <ul className="sidebar__list">
          {tags.map((tag) => (
            <li key={tag.anchor}>
              <a className="sidebar__link" href={`#${tag.anchor}`}>
                {tag.name}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <article className="doc">
        <h1>REST API</h1>
        <p>
          {title}, version {version}. The machine-readable document: <a href="/openapi.json" download>openapi.json</a>.
        </p>
        {tags.map((tag) => (
          <section key={tag.anchor} id={tag.anchor} aria-labelledby={`${tag.anchor}/title`}>
            <h2 id={`${tag.anchor}/title`}>{tag.name}</h2>
            {tag.description ? <p>{tag.description}</p> : null}
            {tag.operations.map((operation) => (
              <section key={operation.anchor} id={operation.anchor} className="operation" aria-labelledby={`${operation.anchor}/title`}>
                <h3 id={`${operation.anchor}/title`}>
                  {operation.summary}
                  {operation.deprecated ? <span className="badge"> deprecated</span> : null}
                </h3>
                <p>
                  <code className={`operation__method operation__method--${operation.method.toLowerCase()}`}>{operation.method}</code>{' '}
                  <code>{operation.path}</code>
                </p>
                {operation.description ? <p className="operation__description">{operation.description}</p> : null}
              </section>
            ))}
          </section>
        ))}
      </article>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from '../components/ErrorPages.js';
