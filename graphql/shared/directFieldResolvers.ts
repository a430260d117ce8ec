import type { GraphQLFieldResolver } from 'graphql';
import { getMetadataStorage } from 'type-graphql';

type ResolverMap = Record<string, Record<string, unknown>>;
type ResolverInstance = Record<string, (...params: unknown[]) => unknown>;

const directParams = new Set(['root', 'context', 'info']);

/**
 * Fields resolved without type-graphql's generic dispatcher, where it adds nothing.
 *
 * type-graphql gives every field a resolver that builds a resolver-data object and walks the
 * (empty) middleware chain before reading the property, and every `@FieldResolver` one that also
 * copies a parent of another class into a new instance and maps the parameters. For a page of 50
 * offers that is thousands of calls per request (issue 19's profiles). Here:
 * - a plain field (no arguments, middlewares or roles) reads its property: the GraphQL default
 *   resolver when the names match, so that graphql-jit inlines the read;
 * - a field resolver of a resolver class that takes only the parent, the context or the info is
 *   called with them directly (our parents are the type's class or views of it, read by property).
 * Resolvers with arguments, middlewares or roles keep type-graphql's dispatcher, which converts
 * and checks what they take.
 */
export function resolveFieldsDirectly(
  resolvers: ResolverMap,
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  resolverClasses: readonly Function[],
): void {
  const storage = getMetadataStorage();
  const typeNameOf = new Map(storage.objectTypes.map((type) => [type.target, type.name]));
  const resolved = new Set<string>();

  const instances = new Map<unknown, ResolverInstance>();
  for (const field of storage.fieldResolvers) {
    if (field.kind !== 'external' || !resolverClasses.includes(field.target)) continue;
    const typeName = typeNameOf.get(field.getObjectType?.() as never);
    const fields = typeName ? resolvers[typeName] : undefined;
    if (!typeName || !fields || !(field.schemaName in fields)) continue;
    resolved.add(`${typeName}.${field.schemaName}`);
    if (field.middlewares?.length || field.roles?.length) continue;
    const params = [...(field.params ?? [])].sort((left, right) => left.index - right.index);
    if (!params.every((param) => directParams.has(param.kind) && !('propertyName' in param && param.propertyName))) {
      continue;
    }
    let instance = instances.get(field.target);
    if (!instance) {
      instance = new (field.target as new () => ResolverInstance)();
      instances.set(field.target, instance);
    }
    fields[field.schemaName] = directResolver(
      instance[field.methodName].bind(instance),
      params.map((param) => param.kind),
    );
  }

  for (const type of storage.objectTypes) {
    const fields = resolvers[type.name];
    if (!fields) continue;
    for (const field of type.fields ?? []) {
      if (resolved.has(`${type.name}.${field.schemaName}`) || !(field.schemaName in fields)) continue;
      if (field.middlewares?.length || field.roles?.length || field.params?.length) continue;
      if (field.name === field.schemaName) {
        delete fields[field.schemaName];
      } else {
        const property = field.name;
        fields[field.schemaName] = (root: Record<string, unknown>) => root[property];
      }
    }
  }
}

function directResolver(
  method: (...params: unknown[]) => unknown,
  kinds: string[],
): GraphQLFieldResolver<unknown, unknown> {
  const pick = (kind: string, root: unknown, context: unknown, info: unknown) =>
    kind === 'root' ? root : kind === 'context' ? context : info;
  if (kinds.length === 1) {
    const [first] = kinds;
    return (root, _args, context, info) => method(pick(first, root, context, info));
  }
  if (kinds.length === 2) {
    const [first, second] = kinds;
    return (root, _args, context, info) => method(pick(first, root, context, info), pick(second, root, context, info));
  }
  return (root, _args, context, info) => method(...kinds.map((kind) => pick(kind, root, context, info)));
}
