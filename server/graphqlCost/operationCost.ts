import {
  type DefinitionNode,
  type DocumentNode,
  type DirectiveNode,
  getArgumentValues,
  getNamedType,
  getNullableType,
  getVariableValues,
  type GraphQLField,
  type GraphQLSchema,
  isCompositeType,
  isListType,
  Kind,
  type FieldNode,
  type OperationDefinitionNode,
  visit,
} from 'graphql';
// Its CommonJS build: its ES one imports graphql's .mjs files, another copy of graphql than the
// CommonJS one Apollo Server and this server load, whose schema it would not recognise.
import { type ComplexityEstimator, getComplexity } from 'graphql-query-complexity/cjs';
import { ITEMS_PER_READ, LIST_SIZES } from './policy.js';

export interface OperationMeasure {
  /** What the operation costs the key, at least 1 (decision 017). */
  cost: number;
  /** The operation reads the schema (`__schema` or `__type`). */
  introspection: boolean;
}

type Variables = Record<string, unknown>;

/**
 * The cost of a validated operation, before it runs, by the rule of decision 017:
 * - each field of the operation itself (the root) costs 1: what one REST call costs;
 * - a list of objects costs one read per item of the lists above it, and one more read per
 *   page of 50 items it may return: its size is its `limit` (or `page.limit`) argument, its
 *   bound in {@link LIST_SIZES}, or else one page;
 * - any other field costs nothing: an object comes with the read of its parent (the gateway
 *   fetches an entity for a whole list at once), a scalar with its object.
 * Every branch of a fragment counts, as if every type condition matched. Introspection costs
 * only its root field: it is answered from the schema in memory.
 *
 * graphql-query-complexity walks the operation (fragments expanded) and adds up what
 * {@link costEstimator} says each field costs, from the field's own arguments and what its
 * selection costs: the rule above, counted per item of the list above, read bottom-up.
 *
 * Variables that do not fit the operation give an undefined measure: execution refuses them
 * before any resolver runs.
 */
export function measureOperation(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  rawVariables: Variables | undefined,
): OperationMeasure | undefined {
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], rawVariables ?? {}, { maxErrors: 1 });
  if (coerced.errors) return undefined;
  const root = schema.getRootType(operation.operation);
  if (!root) return undefined;
  const seen = { introspection: false };
  const cost = getComplexity({
    schema,
    query: costedDocument(document, operation),
    variables: withoutNulls(rawVariables ?? {}),
    estimators: [costEstimator(root.name, coerced.coerced, seen)],
    // The document guard let at most MAX_FIELDS selections through, fragments expanded.
    maxQueryNodes: Number.POSITIVE_INFINITY,
  });
  return { cost: Math.min(Math.max(1, cost), Number.MAX_SAFE_INTEGER), introspection: seen.introspection };
}

/**
 * What one field costs per item of the lists above it (decision 017), given what its own
 * selection costs per item of it (`childComplexity`). At the root there is one item above.
 * No field of the graph returns a root type, so a field of the root type is a root field.
 */
function costEstimator(rootName: string, variables: Variables, seen: { introspection: boolean }): ComplexityEstimator {
  return ({ type: parent, field, node, childComplexity }) => {
    const atRoot = parent.name === rootName;
    if (field.name === '__schema' || field.name === '__type') {
      seen.introspection = true;
      return atRoot ? 1 : 0;
    }
    // `__typename` is no field of its parent: it costs nothing, even at the root.
    if (field.name === '__typename') return 0;
    const rootCost = atRoot ? 1 : 0;
    if (!isCompositeType(getNamedType(field.type)) || !node.selectionSet) return rootCost;
    if (!isListType(getNullableType(field.type))) return rootCost + childComplexity;
    const size = listSize(parent.name, field, node, variables);
    const pages = Math.max(1, Math.ceil(size / ITEMS_PER_READ));
    return pages + size * childComplexity;
  };
}

/** The most items a list field may return, from its page-size argument or its known bound. */
function listSize(
  parentName: string,
  field: GraphQLField<unknown, unknown>,
  node: FieldNode,
  variables: Variables,
): number {
  const args = argumentsOf(field, node, variables);
  const page = args.page;
  const requested =
    typeof args.limit === 'number'
      ? args.limit
      : page && typeof page === 'object' && typeof (page as { limit?: unknown }).limit === 'number'
        ? (page as { limit: number }).limit
        : undefined;
  const size = requested ?? LIST_SIZES[`${parentName}.${field.name}`] ?? ITEMS_PER_READ;
  return Math.max(0, size);
}

function argumentsOf(field: GraphQLField<unknown, unknown>, node: FieldNode, variables: Variables): Variables {
  try {
    return getArgumentValues(field, node, variables);
  } catch {
    // A missing or null argument: execution refuses the field; it reads nothing.
    return {};
  }
}

/**
 * The operation and the fragments, as the library gets them. It would cost only the chosen
 * operation if given its name, but an anonymous one has none. It would leave out a field under
 * `@skip` or `@include`; the rule counts every field written, so these directives are taken out.
 */
function costedDocument(document: DocumentNode, operation: OperationDefinitionNode): DocumentNode {
  const definitions: DefinitionNode[] = [operation];
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) definitions.push(definition);
  }
  return visit(
    { kind: Kind.DOCUMENT, definitions },
    {
      Directive: (directive: DirectiveNode) =>
        directive.name.value === 'skip' || directive.name.value === 'include' ? null : undefined,
    },
  );
}

/**
 * The variables as the library gets them. It reads each field's arguments itself, and leaves out
 * a field given null where its argument must have a value (a variable with a default, sent
 * null): the rule counts that field as if it had no arguments, which {@link costEstimator}
 * reads from the variables as sent. Without `@skip` and `@include`, the library reads the
 * variables for nothing else.
 */
function withoutNulls(variables: Variables): Variables {
  return Object.fromEntries(Object.entries(variables).filter(([, value]) => value !== null));
}
