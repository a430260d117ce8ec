import { CodeTabs } from './CodeTabs.js';
import type { ReferenceOperation } from './model.js';
import { Code } from './Prose.js';
import { curlFirstSamples, responseSampleOf, sampleRequestOf } from './samples.js';
import type { JsonSchema } from './schema.js';
import { TryIt } from './TryIt.js';
import { tryItOperationOf } from './tryItModel.js';

export function statusClass(status: string): string {
  return `status status--${status.charAt(0)}xx`;
}

/** Where an operation's samples are: a page for a reader without JavaScript, a fragment for the reference's client. */
export function operationSamplesPath(operationId: string): string {
  return `/rest-api/operations/${encodeURIComponent(operationId)}`;
}

export function operationSamplesFragmentPath(operationId: string): string {
  return `${operationSamplesPath(operationId)}/samples`;
}

/**
 * One operation's right column: its request samples (curl written here, the other languages by
 * the client from the request), an example of its first answer, and its try-it console. The
 * reference does not carry it: the client fetches it as the operation nears the viewport
 * (app/client/operationSamples.ts), and a reader without JavaScript follows a link to the page
 * that shows it (decision 010).
 */
export function OperationSamples({
  operation,
  schemas,
  baseUrl,
}: {
  operation: ReferenceOperation;
  schemas: Record<string, JsonSchema>;
  baseUrl: string;
}) {
  const request = sampleRequestOf(operation, schemas, baseUrl);
  const response = responseSampleOf(operation, schemas);
  return (
    <>
      <h4 className="operation__subtitle">Request samples</h4>
      <CodeTabs
        id={`samples-${operation.operationId}`}
        label={`Request samples: ${operation.summary}`}
        samples={curlFirstSamples(request)}
        request={request}
      />
      {response ? (
        <>
          <h4 className="operation__subtitle">
            Response example <span className={statusClass(response.status)}>{response.status}</span>
          </h4>
          {response.json !== null ? (
            <pre data-copy="" tabIndex={0}>
              <Code className="language-json" text={response.json} />
            </pre>
          ) : (
            <p>No content.</p>
          )}
        </>
      ) : null}
      <TryIt operation={tryItOperationOf(operation, schemas, request.body)} />
    </>
  );
}
