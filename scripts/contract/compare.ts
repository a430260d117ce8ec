import { apiDiff, type Diff } from 'api-smart-diff';
import type { ContractDocument } from './document.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** An operation of either document, as the change log names it. */
export interface OperationRef {
  method: string;
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  /** Gone from the current document: the reference has no anchor for it any more. */
  removed: boolean;
}

/** One change of one operation between the released document and the current one. */
export interface ContractChange {
  operation: OperationRef;
  breaking: boolean;
  /** `field \`id\` removed from the \`200\` answer`: what changed, in the change log's words. */
  sentence: string;
}

interface OperationObject {
  operationId?: string;
  summary?: string;
  tags?: string[];
  parameters?: { name?: string; in?: string }[];
}
type PathItem = Record<string, OperationObject | undefined>;
interface DocumentShape {
  paths?: Record<string, PathItem | undefined>;
}

function operationOf(document: DocumentShape, path: string, method: string): OperationObject | undefined {
  return document.paths?.[path]?.[method];
}

function refOf(released: DocumentShape, current: DocumentShape, path: string, method: string): OperationRef {
  const now = operationOf(current, path, method);
  const operation: OperationObject = now ?? operationOf(released, path, method) ?? {};
  return {
    method,
    path,
    operationId: String(operation.operationId ?? `${method} ${path}`),
    summary: String(operation.summary ?? `${method.toUpperCase()} ${path}`),
    tag: String(operation.tags?.[0] ?? ''),
    removed: now === undefined,
  };
}

const code = (text: string | number) => `\`${text}\``;

/** `venues[].siret`: where in a body a schema's path leads, through properties and array items. */
function fieldOf(schemaPath: (string | number)[]): string {
  const names: string[] = [];
  for (let index = 0; index < schemaPath.length; index += 1) {
    const key = schemaPath[index];
    if (key === 'properties' && index + 1 < schemaPath.length) names.push(String(schemaPath[(index += 1)]));
    else if (key === 'items') names.push('[]');
  }
  return names.join('.').replaceAll('.[]', '[]');
}

const ACTIONS: Record<Diff['action'], string> = {
  add: 'added',
  remove: 'removed',
  replace: 'changed',
  rename: 'renamed',
};

const PREPOSITIONS: Record<Diff['action'], string> = { add: 'to', remove: 'from', replace: 'in', rename: 'in' };

/** What changed inside a schema (a body, an answer, a parameter), in a few words. */
function schemaSentence(diff: Diff, schemaPath: (string | number)[], where: string): string {
  const last = schemaPath.at(-1);
  const beforeLast = schemaPath.at(-2);
  if (beforeLast === 'properties') {
    return `field ${code(fieldOf(schemaPath))} ${ACTIONS[diff.action]} ${PREPOSITIONS[diff.action]} ${where}`;
  }
  if (beforeLast === 'required') {
    const field = fieldOf([...schemaPath.slice(0, -2), 'properties', String(diff.after ?? diff.before)]);
    return `field ${code(field)} of ${where} ${diff.action === 'add' ? 'now required' : 'no longer required'}`;
  }
  if (beforeLast === 'enum') {
    const field = fieldOf(schemaPath.slice(0, -2)) || 'the value';
    const value: unknown = diff.action === 'remove' ? diff.before : diff.after;
    return `value ${code(JSON.stringify(value))} ${ACTIONS[diff.action]} ${PREPOSITIONS[diff.action]} ${code(field)} in ${where}`;
  }
  const field = fieldOf(schemaPath);
  const subject = field ? `${code(field)} in ${where}` : where;
  if (last === 'type')
    return `type of ${subject} changed from ${code(JSON.stringify(diff.before))} to ${code(JSON.stringify(diff.after))}`;
  return `${String(last)} of ${subject} ${ACTIONS[diff.action]}`;
}

/** The change log's words for one difference inside an operation (`rest`: its path below the method). */
function sentenceOf(
  diff: Diff,
  rest: (string | number)[],
  operations: { before?: OperationObject; after?: OperationObject },
): string {
  const [first, second, third] = rest;
  if (rest.length === 0) return diff.action === 'add' ? 'new operation' : 'operation removed';
  if (first === 'responses') {
    const answer = `the ${code(String(second))} answer`;
    if (rest.length === 2)
      return diff.action === 'add' ? `answers ${code(String(second))}` : `no longer answers ${code(String(second))}`;
    if (third === 'content' && rest[4] === 'schema') return schemaSentence(diff, rest.slice(5), answer);
    if (third === 'headers' && rest.length === 4)
      return `header ${code(String(rest[3]))} ${ACTIONS[diff.action]} in ${answer}`;
  }
  if (first === 'requestBody' && second === 'content' && rest[3] === 'schema') {
    return schemaSentence(diff, rest.slice(4), 'the body');
  }
  if (first === 'parameters' && typeof second === 'number') {
    const parameter =
      (diff.action === 'remove' ? operations.before : operations.after)?.parameters?.[second] ??
      operations.after?.parameters?.[second] ??
      operations.before?.parameters?.[second];
    const name = `${parameter?.in ?? ''} parameter ${code(parameter?.name ?? second)}`.trim();
    if (rest.length === 2) return `${name} ${ACTIONS[diff.action]}`;
    if (rest[2] === 'schema') return schemaSentence(diff, rest.slice(3), name);
    return `${String(rest.at(-1))} of ${name} ${ACTIONS[diff.action]}`;
  }
  return diff.description?.replace(/^\[\w+\]\s*/, '') ?? `${rest.join('.')} ${ACTIONS[diff.action]}`;
}

/**
 * What changed in the operations between the released document and the current one, by
 * api-smart-diff's rules for OpenAPI (decision 030): breaking when a client written against the
 * released document may fail (a field or a status removed, a type narrowed, a new required input,
 * an accepted value removed), not breaking when it only adds. Changes of descriptions and examples
 * (annotations) are left out.
 */
export function compareDocuments(released: ContractDocument, current: ContractDocument): ContractChange[] {
  // As served (JSON: a key set to undefined is no key), and copies: the diff writes into what it compares.
  const before = JSON.parse(JSON.stringify(released)) as DocumentShape;
  const after = JSON.parse(JSON.stringify(current)) as DocumentShape;
  const changes = new Map<string, ContractChange>();
  const record = (ref: OperationRef, breaking: boolean, sentence: string) => {
    changes.set(`${ref.method} ${ref.path} ${breaking} ${sentence}`, { operation: ref, breaking, sentence });
  };
  for (const diff of apiDiff(structuredClone(before), structuredClone(after))) {
    if (diff.type === 'annotation' || diff.path[0] !== 'paths') continue;
    const path = String(diff.path[1]);
    const breaking = diff.type === 'breaking';
    if (diff.path.length <= 2) {
      // Whole paths added or removed: each of their operations is.
      const value = (diff.action === 'remove' ? diff.before : diff.after) as unknown;
      const items: [string, PathItem | undefined][] =
        diff.path.length === 2
          ? [[path, value as PathItem]]
          : Object.entries((value ?? {}) as Record<string, PathItem>);
      for (const [itemPath, item] of items) {
        for (const method of Object.keys(item ?? {}).filter((key) => METHODS.includes(key))) {
          const sentence = diff.action === 'add' ? 'new operation' : 'operation removed';
          record(refOf(before, after, itemPath, method), breaking, sentence);
        }
      }
      continue;
    }
    const method = String(diff.path[2]);
    if (!METHODS.includes(method)) continue;
    const operations = { before: operationOf(before, path, method), after: operationOf(after, path, method) };
    record(refOf(before, after, path, method), breaking, sentenceOf(diff, diff.path.slice(3), operations));
  }
  return withoutRedundantRequirements([...changes.values()]);
}

/** "field `x` of the answer no longer required" says nothing more when `x` itself was removed (or added) there. */
function withoutRedundantRequirements(changes: ContractChange[]): ContractChange[] {
  const sentences = new Set(changes.map((change) => `${change.operation.operationId} ${change.sentence}`));
  return changes.filter(({ operation, sentence }) => {
    const requirement = /^field (`[^`]+`) of (.+) (now required|no longer required)$/.exec(sentence);
    if (!requirement) return true;
    const [, field, where, state] = requirement;
    const same = state === 'now required' ? `field ${field} added to ${where}` : `field ${field} removed from ${where}`;
    return !sentences.has(`${operation.operationId} ${same}`);
  });
}
