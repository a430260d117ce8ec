import { printSubgraphSchema } from '@apollo/subgraph';
import {
  type ConstDirectiveNode,
  type DocumentNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  type TypeSystemDefinitionNode,
  type TypeSystemExtensionNode,
  getNamedType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isSpecifiedScalarType,
  isUnionType,
  Kind,
  parse,
  visit,
} from 'graphql';
import type { Caller } from './shared/caller.js';
import type { Subgraph } from './shared/buildSubgraph.js';
import { STAFF_TAG } from './shared/staffOnly.js';

/**
 * Who reads the graph: the platform's staff see all of it; a provider's key sees it without what
 * is tagged `staff` and without the types only those elements lead to (decision 033).
 */
export type Audience = 'staff' | 'provider';

export function audienceOf(caller: Caller): Audience {
  return caller.kind === 'provider' ? 'provider' : 'staff';
}

/** Fields federation adds to a subgraph's Query, which the gateway never exposes. */
const FEDERATION_ROOT_FIELDS = new Set(['_entities', '_service']);

const INACCESSIBLE: ConstDirectiveNode = {
  kind: Kind.DIRECTIVE,
  name: { kind: Kind.NAME, value: 'inaccessible' },
  arguments: [],
};

/**
 * The subgraphs' SDL for the provider audience: every element tagged `staff`, and every type no
 * other element leads to, marked `@inaccessible`. Composed, this is a contract of the graph in
 * Apollo's sense: the gateway plans with all of it, and its API schema (the one it validates and
 * introspects against) has none of the marked elements.
 */
export function providerAudienceTypeDefs(subgraphs: Subgraph[]): { name: string; typeDefs: DocumentNode }[] {
  const hidden = typesOnlyStaffReaches(subgraphs.map((subgraph) => subgraph.schema));
  return subgraphs.map((subgraph) => ({
    name: subgraph.name,
    typeDefs: markInaccessible(parse(printSubgraphSchema(subgraph.schema)), hidden),
  }));
}

function isStaffTagged(node: { readonly directives?: readonly ConstDirectiveNode[] } | null | undefined): boolean {
  return (node?.directives ?? []).some(
    (directive) =>
      directive.name.value === 'tag' &&
      directive.arguments?.some(
        (argument) =>
          argument.name.value === 'name' && argument.value.kind === Kind.STRING && argument.value.value === STAFF_TAG,
      ),
  );
}

function isOwnType(name: string): boolean {
  return !name.startsWith('_') && !name.startsWith('link__') && !name.startsWith('federation__');
}

/** The graph's types that no untagged path from a root reaches, across every subgraph's part of them. */
function typesOnlyStaffReaches(schemas: GraphQLSchema[]): Set<string> {
  const reached = new Set<string>();
  const queue: string[] = [];
  const reach = (type: GraphQLNamedType) => {
    if (reached.has(type.name)) return;
    reached.add(type.name);
    queue.push(type.name);
  };
  for (const schema of schemas) {
    for (const root of [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]) {
      if (root) reach(root);
    }
  }
  for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
    for (const schema of schemas) {
      const type = schema.getType(name);
      if (!type) continue;
      if (isObjectType(type) || isInterfaceType(type)) {
        for (const field of Object.values(type.getFields())) {
          if (FEDERATION_ROOT_FIELDS.has(field.name) || isStaffTagged(field.astNode)) continue;
          reach(getNamedType(field.type));
          for (const argument of field.args) if (!isStaffTagged(argument.astNode)) reach(getNamedType(argument.type));
        }
        for (const implemented of type.getInterfaces()) reach(implemented);
        if (isInterfaceType(type)) for (const possible of schema.getPossibleTypes(type)) reach(possible);
      } else if (isUnionType(type)) {
        for (const member of type.getTypes()) reach(member);
      } else if (isInputObjectType(type)) {
        for (const field of Object.values(type.getFields())) {
          if (!isStaffTagged(field.astNode)) reach(getNamedType(field.type));
        }
      }
    }
  }
  const hidden = new Set<string>();
  for (const schema of schemas) {
    for (const type of Object.values(schema.getTypeMap())) {
      if (isOwnType(type.name) && !isSpecifiedScalarType(type) && !reached.has(type.name)) hidden.add(type.name);
    }
  }
  return hidden;
}

function withInaccessible<Node extends { readonly directives?: readonly ConstDirectiveNode[] }>(node: Node): Node {
  return { ...node, directives: [...(node.directives ?? []), INACCESSIBLE] };
}

function markInaccessible(document: DocumentNode, hiddenTypes: Set<string>): DocumentNode {
  const hideType = <Node extends TypeSystemDefinitionNode | TypeSystemExtensionNode>(node: Node) =>
    'name' in node && hiddenTypes.has(node.name.value) ? withInaccessible(node) : undefined;
  const hideTagged = <Node extends { readonly directives?: readonly ConstDirectiveNode[] }>(node: Node) =>
    isStaffTagged(node) ? withInaccessible(node) : undefined;
  return visit(document, {
    ObjectTypeDefinition: hideType,
    ObjectTypeExtension: hideType,
    InterfaceTypeDefinition: hideType,
    InterfaceTypeExtension: hideType,
    UnionTypeDefinition: hideType,
    EnumTypeDefinition: hideType,
    InputObjectTypeDefinition: hideType,
    ScalarTypeDefinition: hideType,
    FieldDefinition: hideTagged,
    InputValueDefinition: hideTagged,
  });
}
