import { renderToStaticMarkup } from 'react-dom/server';
import type { OpenApiDocument } from '../portalContext.js';
import { type ReferenceOperation, referenceTags } from './model.js';
import { MethodBadge } from './Operation.js';
import { OperationSamples } from './OperationSamples.js';
import { ReferencePage } from './ReferencePage.js';
import { Prose } from './Prose.js';
import { componentSchemas, resolveSchema, schemaAnchor, schemaPagePath } from './schema.js';
import { SchemaBody, SchemaLinks } from './SchemaTree.js';

/** One value per document, built on first use: the server keeps one document for its life. */
function perDocument<T>(build: (document: OpenApiDocument) => T): (document: OpenApiDocument) => T {
  const values = new WeakMap<OpenApiDocument, T>();
  return (document) => {
    let value = values.get(document);
    if (value === undefined) values.set(document, (value = build(document)));
    return value;
  };
}

/**
 * The reference's markup, rendered once per document: the page is large, and rendering it on
 * every request would cost the reader hundreds of milliseconds before the first byte.
 */
export const referenceHtml = perDocument((document) => renderToStaticMarkup(<ReferencePage document={document} />));

/**
 * A markup per document and name (a schema's, an operation's), rendered once; null when `find`
 * finds nothing of that name in the document.
 */
function cachedPerName<T>(
  find: (document: OpenApiDocument, name: string) => T | undefined,
  render: (found: T, name: string, document: OpenApiDocument) => string,
): (document: OpenApiDocument, name: string) => string | null {
  const caches = perDocument(() => new Map<string, string>());
  return (document, name) => {
    const found = find(document, name);
    if (found === undefined) return null;
    const cache = caches(document);
    let html = cache.get(name);
    if (html === undefined) cache.set(name, (html = render(found, name, document)));
    return html;
  };
}

/** A per-schema markup: `render` gets the document's component schemas, which hold `name`. */
function cachedPerSchema(
  render: (schemas: ReturnType<typeof componentSchemas>, name: string) => string,
): (document: OpenApiDocument, name: string) => string | null {
  return cachedPerName((document, name) => {
    const schemas = componentSchemas(document);
    return Object.hasOwn(schemas, name) ? schemas : undefined;
  }, render);
}

const componentRef = (name: string) => ({ $ref: `#/components/schemas/${encodeURIComponent(name)}` });

/** The next levels of a component schema, as a fragment the client inserts into the reference. */
export const schemaFragmentHtml = cachedPerSchema((schemas, name) =>
  renderToStaticMarkup(<SchemaBody schema={componentRef(name)} schemas={schemas} level={1} />),
);

/** The same fragment for a schema's own page, where names link to their pages (there is no `#schema/` anchor). */
export const schemaPageFragmentHtml = cachedPerSchema((schemas, name) =>
  renderToStaticMarkup(
    <SchemaLinks.Provider value={schemaPagePath}>
      <SchemaBody schema={componentRef(name)} schemas={schemas} level={1} />
    </SchemaLinks.Provider>,
  ),
);

/** A schema's own page: its description and fields, deeper levels folded, names linking to their pages. */
export const schemaPageHtml = cachedPerSchema((schemas, name) => {
  const { schema } = resolveSchema(schemas[name], schemas);
  return renderToStaticMarkup(
    <SchemaLinks.Provider value={schemaPagePath}>
      <article className="schema-page__body">
        <p className="schema-page__back">
          <a href={`/rest-api#${schemaAnchor(name)}`}>REST API reference</a> › Schemas
        </p>
        <h1>{name}</h1>
        {schema.description ? <Prose text={schema.description} /> : null}
        <SchemaBody schema={componentRef(name)} schemas={schemas} level={1} />
      </article>
    </SchemaLinks.Provider>,
  );
});

/** Each operation of a document by its operationId. */
const operationsOf = perDocument(
  (document) =>
    new Map(
      referenceTags(document).flatMap((tag) =>
        tag.operations.map((operation) => [operation.operationId, operation] as const),
      ),
    ),
);

/** The operation of a document with that operationId, if any. */
export function referenceOperation(document: OpenApiDocument, operationId: string): ReferenceOperation | undefined {
  return operationsOf(document).get(operationId);
}

/** A per-operation markup, rendered once per document and operationId. */
function cachedPerOperation(
  render: (operation: ReferenceOperation, document: OpenApiDocument) => string,
): (document: OpenApiDocument, operationId: string) => string | null {
  return cachedPerName(referenceOperation, (operation, _operationId, document) => render(operation, document));
}

const baseUrlOf = (document: OpenApiDocument) => document.servers?.[0]?.url ?? '';

/** An operation's samples and try-it console, as the fragment the reference's client puts in its right column. */
export const operationSamplesFragmentHtml = cachedPerOperation((operation, document) =>
  renderToStaticMarkup(
    <OperationSamples operation={operation} schemas={componentSchemas(document)} baseUrl={baseUrlOf(document)} />,
  ),
);

/** The same on a page of its own, for a reader without JavaScript: which operation, and the way back. */
export const operationSamplesPageHtml = cachedPerOperation((operation, document) =>
  renderToStaticMarkup(
    <article className="operation-page__body">
      <p className="schema-page__back">
        <a href={`/rest-api#${operation.anchor}`}>REST API reference</a> › {operation.tag}
      </p>
      <h1>{operation.summary}</h1>
      <p className="operation__endpoint">
        <MethodBadge method={operation.method} /> <code>{operation.path}</code>
      </p>
      <p>
        What it takes and answers is <a href={`/rest-api#${operation.anchor}`}>in the reference</a>.
      </p>
      <div className="operation__aside">
        <OperationSamples operation={operation} schemas={componentSchemas(document)} baseUrl={baseUrlOf(document)} />
      </div>
    </article>,
  ),
);
