import type { ReactNode } from 'react';
import type { ReferenceOperation, ReferenceParameter, ReferenceResponse } from './model.js';
import { operationSamplesFragmentPath, operationSamplesPath, statusClass } from './OperationSamples.js';
import { Prose } from './Prose.js';
import { type JsonSchema, resolveSchema, typesOf } from './schema.js';
import { LazySchema, SchemaBody, SchemaFacts, SchemaLink, TypeLabel } from './SchemaTree.js';

type Schemas = Record<string, JsonSchema>;

export function MethodBadge({ method }: { method: string }) {
  return <span className={`method method--${method.toLowerCase()}`}>{method}</span>;
}

function Parameters({
  title,
  parameters,
  schemas,
}: {
  title: string;
  parameters: ReferenceParameter[];
  schemas: Schemas;
}) {
  if (parameters.length === 0) return null;
  return (
    <>
      <h4 className="operation__subtitle">{title}</h4>
      <ul className="schema parameters">
        {parameters.map((parameter) => (
          <li key={parameter.name} className="schema__field" data-parameter={parameter.name}>
            <code className="schema__name">{parameter.name}</code>{' '}
            <span className="schema__type">
              <TypeLabel schema={parameter.schema} schemas={schemas} />
            </span>
            <SchemaFacts
              schema={{ ...parameter.schema, ...(parameter.description ? { description: parameter.description } : {}) }}
              schemas={schemas}
              required={parameter.required}
            />
          </li>
        ))}
      </ul>
    </>
  );
}

/**
 * The component schema an answer's fields come from: the answer's own, or its items' when it is
 * an array of one. Such an answer is folded and its fields load when opened, like a deeper level.
 */
export function lazyAnswerSchema(schema: JsonSchema, schemas: Schemas): { name: string; array: boolean } | null {
  const { schema: resolved, name } = resolveSchema(schema, schemas);
  if (name) return { name, array: false };
  const items = resolved.items ? resolveSchema(resolved.items, schemas) : null;
  return items?.name && typesOf(resolved).includes('array') ? { name: items.name, array: true } : null;
}

function Response({ response, first, schemas }: { response: ReferenceResponse; first: boolean; schemas: Schemas }) {
  const summary: ReactNode = (
    <>
      <span className={statusClass(response.status)}>{response.status}</span> {response.description}
    </>
  );
  if (!response.schema) {
    return (
      <li className="response response--empty">
        {summary}
        {response.status === '204' ? ' No content.' : null}
      </li>
    );
  }
  const lazy = lazyAnswerSchema(response.schema, schemas);
  if (!first && lazy && !lazy.array) {
    // The other answers share a handful of schemas (errors): a link to the schema's section, which
    // loads its fields when targeted, instead of a tree per answer.
    return (
      <li className="response">
        {summary}: <SchemaLink name={lazy.name} />
      </li>
    );
  }
  if (lazy) {
    // The first success's fields fold too (decision 010): drawn open, they were 168 KB of the page.
    // The response example in the samples column shows the answer's shape at a glance.
    return (
      <li className="response">
        <LazySchema
          name={lazy.name}
          summary={
            <>
              {summary} <span className="response__shape">{lazy.array ? `array of ${lazy.name}` : lazy.name}</span>
            </>
          }
          fallback={`The fields of ${lazy.name}`}
        />
      </li>
    );
  }
  return (
    <li className="response">
      <details className="schema__nested" open={first}>
        <summary>{summary}</summary>
        <p className="response__media">
          <code>{response.mediaType}</code>
        </p>
        <SchemaBody schema={response.schema} schemas={schemas} />
      </details>
    </li>
  );
}

/**
 * One operation: the main column (what it takes and answers) and the right one, where the client
 * puts the samples and the try-it console (app/reference/OperationSamples.tsx) as the operation
 * nears the viewport; until then, and without JavaScript, a link to the page that has them.
 */
export function Operation({
  operation,
  schemas,
  securitySchemes,
  first = false,
}: {
  operation: ReferenceOperation;
  schemas: Schemas;
  securitySchemes: Record<string, { type?: string; scheme?: string }>;
  first?: boolean;
}) {
  const firstSuccess = operation.responses.findIndex((candidate) => /^2/.test(candidate.status));
  const id = operation.anchor;
  return (
    <section id={id} className="operation" aria-labelledby={`${id}/title`}>
      <div className="operation__main">
        {/* `elementtiming`: the browser reports when the first operation is painted (npm run bench:portal). */}
        <h3 id={`${id}/title`} className="operation__title" {...(first ? { elementtiming: 'first-operation' } : {})}>
          {operation.summary}
          {operation.deprecated ? <span className="badge badge--deprecated">deprecated</span> : null}
        </h3>
        <p className="operation__endpoint">
          <MethodBadge method={operation.method} /> <code>{operation.path}</code>
        </p>
        <Prose text={operation.description} />
        {operation.security.length > 0 ? (
          <p className="operation__security">
            Authorization:{' '}
            {operation.security.map((scheme) => (
              <span key={scheme}>
                <a href="#authentication">{scheme}</a>
                {securitySchemes[scheme]?.scheme === 'bearer' ? ' (bearer API key)' : null}
              </span>
            ))}
          </p>
        ) : null}
        <Parameters
          title="Path parameters"
          parameters={operation.parameters.filter((parameter) => parameter.in === 'path')}
          schemas={schemas}
        />
        <Parameters
          title="Query parameters"
          parameters={operation.parameters.filter((parameter) => parameter.in === 'query')}
          schemas={schemas}
        />
        <Parameters
          title="Header parameters"
          parameters={operation.parameters.filter((parameter) => parameter.in === 'header')}
          schemas={schemas}
        />
        {operation.body ? (
          <>
            <h4 className="operation__subtitle">
              Request body <code className="operation__media">{operation.body.mediaType}</code>
            </h4>
            <Prose text={operation.body.description} />
            <SchemaBody schema={operation.body.schema} schemas={schemas} />
          </>
        ) : null}
        <h4 className="operation__subtitle">Responses</h4>
        <ul className="responses">
          {operation.responses.map((candidate, index) => (
            <Response key={candidate.status} response={candidate} first={index === firstSuccess} schemas={schemas} />
          ))}
        </ul>
      </div>
      <div className="operation__aside" data-samples={operationSamplesFragmentPath(operation.operationId)}>
        {/* A link within a sentence: axe exempts it from the touch-target size that a link alone on its line must have. */}
        <p className="operation__samples-link">
          Request samples, a response example and the try-it console:{' '}
          <a href={operationSamplesPath(operation.operationId)}>on a page of their own</a>.
        </p>
      </div>
    </section>
  );
}
