import { renderToStaticMarkup } from 'react-dom/server';
import type { OpenApiDocument } from '../portalContext.js';
import { type ReferenceOperation, referenceTags } from './model.js';
import { MethodBadge } from './Operation.js';
import { OperationSamples } from './OperationSamples.js';
import { ReferencePage } from './ReferencePage.js';
import { Prose } from './Prose.js';
import { componentSchemas, resolveSchema, schemaAnchor, schemaPagePath } from './schema.js';
import { SchemaBody, SchemaLinks } from './SchemaTree.js';

/**
 * The reference's markup, rendered once per document (the server keeps one document for its life):
 * the page is large, and rendering it on every request would cost the reader hundreds of
 * milliseconds before the first byte.
 */
const pages = new WeakMap<OpenApiDocument, string>();

export function referenceHtml(document: OpenApiDocument): string {
  let html = pages.get(document);
  if (html === undefined) {
    html = renderToStaticMarkup(<ReferencePage document={document} />);
    pages.set(document, html);
  }
  return html;
}

type SchemaRenderer = (schemas: ReturnType<typeof componentSchemas>, name: string) => string;

/** A per-schema markup, rendered once per document and name; null when the document has no such schema. */
function cachedPerSchema(render: SchemaRenderer): (document: OpenApiDocument, name: string) => string | null {
  const caches = new WeakMap<OpenApiDocument, Map<string, string>>();
  return (document, name) => {
    const schemas = componentSchemas(document);
    if (!Object.hasOwn(schemas, name)) return null;
    let cache = caches.get(document);
    if (!cache) caches.set(document, (cache = new Map<string, string>()));
    let html = cache.get(name);
    if (html === undefined) cache.set(name, (html = render(schemas, name)));
    return html;
  };
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
const operationsOf = (() => {
  const indexes = new WeakMap<OpenApiDocument, Map<string, ReferenceOperation>>();
  return (document: OpenApiDocument) => {
    let index = indexes.get(document);
    if (!index) {
      index = new Map(
        referenceTags(document).flatMap((tag) =>
          tag.operations.map((operation) => [operation.operationId, operation] as const),
        ),
      );
      indexes.set(document, index);
    }
    return index;
  };
})();

/** The operation of a document with that operationId, if any. */
export function referenceOperation(document: OpenApiDocument, operationId: string): ReferenceOperation | undefined {
  return operationsOf(document).get(operationId);
}

type OperationRenderer = (operation: ReferenceOperation, document: OpenApiDocument) => string;

/** A per-operation markup, rendered once per document and operationId; null when the document has no such operation. */
function cachedPerOperation(
  render: OperationRenderer,
): (document: OpenApiDocument, operationId: string) => string | null {
  const caches = new WeakMap<OpenApiDocument, Map<string, string>>();
  return (document, operationId) => {
    const operation = operationsOf(document).get(operationId);
    if (!operation) return null;
    let cache = caches.get(document);
    if (!cache) caches.set(document, (cache = new Map<string, string>()));
    let html = cache.get(operationId);
    if (html === undefined) cache.set(operationId, (html = render(operation, document)));
    return html;
  };
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
