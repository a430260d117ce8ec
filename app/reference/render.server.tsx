import { renderToStaticMarkup } from 'react-dom/server';
import type { OpenApiDocument } from '../portalContext.js';
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
