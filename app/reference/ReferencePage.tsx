import type { CSSProperties } from 'react';
import type { OpenApiDocument } from '../portalContext.js';
import { COLLECTION_DOWNLOADS, COLLECTIONS_DOC } from './downloads.js';
import { type ReferenceOperation, referenceGroups, referenceTags } from './model.js';
import { Operation, lazyAnswerSchema } from './Operation.js';
import { Prose } from './Prose.js';
import { ReferenceNav } from './ReferenceNav.js';
import { ReferenceSearch } from './ReferenceSearch.js';
import { type JsonSchema, componentSchemas, resolveSchema } from './schema.js';
import { SchemaSections } from './SchemaSections.js';

/**
 * What the styles need to estimate a tag's height before the browser lays it out (reference.css:
 * the tags are `content-visibility: auto`, so those off screen are laid out only when they near the
 * viewport): its operations and the fields of their bodies and first answers, as custom properties.
 */
function renderingEstimate(operations: ReferenceOperation[], schemas: Record<string, JsonSchema>): CSSProperties {
  const fields = operations.reduce(
    (count, operation) =>
      count +
      fieldCount(operation.body?.schema, schemas) +
      drawnAnswerFields(operation.responses.find((response) => /^2/.test(response.status))?.schema, schemas) +
      operation.parameters.length,
    0,
  );
  return { '--operations': operations.length, '--fields': fields } as CSSProperties;
}

/** The first success's fields when they are drawn in the page (an answer of a named schema folds). */
function drawnAnswerFields(schema: JsonSchema | null | undefined, schemas: Record<string, JsonSchema>): number {
  return schema && !lazyAnswerSchema(schema, schemas) ? fieldCount(schema, schemas) : 0;
}

function fieldCount(schema: JsonSchema | null | undefined, schemas: Record<string, JsonSchema>): number {
  return schema ? Object.keys(resolveSchema(schema, schemas).schema.properties ?? {}).length : 0;
}

interface SecurityScheme {
  type?: string;
  scheme?: string;
  description?: string;
}

/**
 * The API reference, rendered on the server from the OpenAPI document (decision 009): the left
 * navigation, every operation by tag (main column and samples), then every schema. The route puts
 * it in `<div class="reference" data-reference>` (the client loads the reference's chunk there).
 */
export function ReferencePage({ document }: { document: OpenApiDocument }) {
  const schemas = componentSchemas(document);
  const tags = referenceTags(document);
  const groups = referenceGroups(document, tags);
  const servers = (document.servers ?? []) as { url: string; description?: string }[];
  const securitySchemes =
    (document.components as { securitySchemes?: Record<string, SecurityScheme> } | undefined)?.securitySchemes ?? {};
  return (
    <>
      <ReferenceNav groups={groups} search={<ReferenceSearch />} />
      <div className="reference__content">
        <header className="reference__intro">
          <h1>REST API</h1>
          <p>
            {document.info.title}, version {document.info.version}.{' '}
            <a className="reference__download" href="/openapi.json" download>
              Download openapi.json
            </a>
          </p>
          <p className="reference__collections">
            Ready to send from a client of your own: the{' '}
            <a href={COLLECTION_DOWNLOADS.postmanCollection} download>
              Postman collection
            </a>{' '}
            with its{' '}
            <a href={COLLECTION_DOWNLOADS.postmanEnvironment} download>
              sandbox environment
            </a>
            , and the{' '}
            <a href={COLLECTION_DOWNLOADS.brunoCollection} download>
              Bruno collection
            </a>
            , made from this document (<a href={COLLECTIONS_DOC}>how to use them</a>).
          </p>
          {document.info.description ? <Prose text={document.info.description} /> : null}
          {servers.length > 0 ? (
            <ul className="reference__servers">
              {servers.map((server) => (
                <li key={server.url}>
                  <code>{server.url}</code>
                  {server.description ? `: ${server.description}` : null}
                </li>
              ))}
            </ul>
          ) : null}
          <section id="authentication" aria-labelledby="authentication/title">
            <h2 id="authentication/title">Authentication</h2>
            {Object.entries(securitySchemes).map(([name, scheme]) => (
              <div key={name}>
                <p>
                  <code>{name}</code>: {scheme.type === 'http' ? `HTTP ${scheme.scheme ?? ''}`.trim() : scheme.type}
                  {scheme.scheme === 'bearer' ? ' (API key)' : null}.
                </p>
                {scheme.description ? <Prose text={scheme.description} /> : null}
              </div>
            ))}
          </section>
        </header>
        {tags.map((tag, tagIndex) => (
          <section
            key={tag.anchor}
            id={tag.anchor}
            className="reference__tag"
            aria-labelledby={`${tag.anchor}/title`}
            style={renderingEstimate(tag.operations, schemas)}
          >
            <h2 id={`${tag.anchor}/title`}>{tag.name}</h2>
            {tag.description ? <Prose text={tag.description} /> : null}
            {tag.operations.map((operation, index) => (
              <Operation
                key={operation.anchor}
                operation={operation}
                schemas={schemas}
                securitySchemes={securitySchemes}
                first={tagIndex === 0 && index === 0}
              />
            ))}
          </section>
        ))}
        <SchemaSections schemas={schemas} />
      </div>
    </>
  );
}
