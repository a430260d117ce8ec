import {
  type DocumentNode,
  type FragmentDefinitionNode,
  getArgumentValues,
  getNamedType,
  getNullableType,
  getVariableValues,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  isCompositeType,
  isInterfaceType,
  isListType,
  isObjectType,
  Kind,
  type FieldNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { ITEMS_PER_READ, LIST_SIZES } from './policy.js';

export interface OperationMeasure {
  /** What the operation costs the key, at least 1 (decision 017). */
  cost: number;
  /** The operation reads the schema (`__schema` or `__type`). */
  introspection: boolean;
}

type Variables = Record<string, unknown>;

interface Walk {
  schema: GraphQLSchema;
  fragments: Map<string, FragmentDefinitionNode>;
  variables: Variables;
  visiting: Set<string>;
  introspection: boolean;
}

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
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const walk: Walk = { schema, fragments, variables: coerced.coerced, visiting: new Set(), introspection: false };
  const cost = selectionCost(root, operation.selectionSet, 1, true, walk);
  return { cost: Math.min(Math.max(1, cost), Number.MAX_SAFE_INTEGER), introspection: walk.introspection };
}

function selectionCost(
  parent: GraphQLCompositeType,
  selectionSet: SelectionSetNode,
  itemsAbove: number,
  atRoot: boolean,
  walk: Walk,
): number {
  let cost = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      cost += fieldCost(parent, selection, itemsAbove, atRoot, walk);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const type = selection.typeCondition ? walk.schema.getType(selection.typeCondition.name.value) : parent;
      if (type && isCompositeType(type)) cost += selectionCost(type, selection.selectionSet, itemsAbove, atRoot, walk);
    } else {
      const name = selection.name.value;
      const fragment = walk.fragments.get(name);
      if (!fragment || walk.visiting.has(name)) continue;
      const type = walk.schema.getType(fragment.typeCondition.name.value);
      if (!type || !isCompositeType(type)) continue;
      walk.visiting.add(name);
      cost += selectionCost(type, fragment.selectionSet, itemsAbove, atRoot, walk);
      walk.visiting.delete(name);
    }
  }
  return cost;
}

function fieldCost(
  parent: GraphQLCompositeType,
  node: FieldNode,
  itemsAbove: number,
  atRoot: boolean,
  walk: Walk,
): number {
  const name = node.name.value;
  if (name === '__schema' || name === '__type') {
    walk.introspection = true;
    return atRoot ? 1 : 0;
  }
  const field = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[name] : undefined;
  if (!field) return 0;
  const type = getNamedType(field.type);
  const rootCost = atRoot ? 1 : 0;
  if (!isCompositeType(type) || !node.selectionSet) return rootCost;
  if (!isListType(getNullableType(field.type))) {
    return rootCost + selectionCost(type, node.selectionSet, itemsAbove, false, walk);
  }
  const size = listSize(parent.name, field, node, walk.variables);
  const pages = Math.max(1, Math.ceil(size / ITEMS_PER_READ));
  return itemsAbove * pages + selectionCost(type, node.selectionSet, itemsAbove * size, false, walk);
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
