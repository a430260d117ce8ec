import {
  type GraphQLArgument,
  type GraphQLFieldResolver,
  type GraphQLSchema,
  getNamedType,
  getNullableType,
  isInputObjectType,
  isListType,
} from 'graphql';
import type { z } from './zod.js';
import { ValidationFailedError, type ValidationIssue } from './errors.js';
import { issuesOf } from './validation.js';

/**
 * A subgraph's input rules, declared beside its inputs and run on every call of the graph
 * (the REST facade's and /graphql's alike) before the resolver:
 * - `types`: per input type, by its GraphQL name, wherever it is an argument or the item of a
 *   list argument;
 * - `arguments`: per argument of a root field (`Query.events` -> `idsAtProvider`), for lists'
 *   sizes and scalar arguments. An argument with its own rule is checked by it alone.
 *
 * `loc` reads as the REST contract's: an input object argument is the request body (its fields
 * at the root); any other argument is named first (`["dates", "0", "quantity"]`, `["eans"]`).
 * An absent or null argument is GraphQL's business (its nullability), not a rule's.
 */
export interface InputRules {
  types?: Record<string, z.ZodType>;
  arguments?: Record<string, Record<string, z.ZodType>>;
}

type ArgumentCheck = (args: Record<string, unknown>) => ValidationIssue[];

function checkOf(argument: GraphQLArgument, rule: z.ZodType, perItem: boolean): ArgumentCheck {
  const isList = isListType(getNullableType(argument.type));
  const at = isInputObjectType(getNamedType(argument.type)) && !isList ? [] : [argument.name];
  return (args) => {
    const value = args[argument.name];
    if (value == null) return [];
    if (perItem && Array.isArray(value)) {
      return value.flatMap((item, index) => issuesOf(rule, item, [...at, String(index)]));
    }
    return issuesOf(rule, value, at);
  };
}

function argumentChecks(
  argumentsOf: readonly GraphQLArgument[],
  typeRules: Record<string, z.ZodType>,
  argumentRules: Record<string, z.ZodType>,
): ArgumentCheck[] {
  return argumentsOf.flatMap((argument) => {
    const own = argumentRules[argument.name];
    if (own) return [checkOf(argument, own, false)];
    const typeRule = typeRules[getNamedType(argument.type).name];
    return typeRule ? [checkOf(argument, typeRule, true)] : [];
  });
}

/** Rules that name a type, field or argument the schema lacks are a mistake: refused at start-up. */
function assertRulesMatch(schema: GraphQLSchema, rules: InputRules, subgraph: string): void {
  for (const typeName of Object.keys(rules.types ?? {})) {
    if (!isInputObjectType(schema.getType(typeName))) {
      throw new Error(`Input rules of ${subgraph}: no input type ${typeName}`);
    }
  }
  for (const [fieldPath, argumentRules] of Object.entries(rules.arguments ?? {})) {
    const [rootName, fieldName] = fieldPath.split('.');
    const root = rootName === 'Query' ? schema.getQueryType() : schema.getMutationType();
    const field = root?.getFields()[fieldName];
    for (const argumentName of Object.keys(argumentRules)) {
      if (!field?.args.some((argument) => argument.name === argumentName)) {
        throw new Error(`Input rules of ${subgraph}: no argument ${argumentName} of ${fieldPath}`);
      }
    }
  }
}

/**
 * Wraps the root fields' resolvers of a subgraph so that their arguments meet the rules before
 * anything runs: a broken rule is one ValidationFailedError listing every issue. `shared` rules
 * (graphql/shared's types, such as PageInput) apply where the subgraph has the type.
 */
export function checkArgumentsOnResolve(
  schema: GraphQLSchema,
  resolvers: Record<string, Record<string, unknown>>,
  rules: InputRules,
  shared: InputRules,
  subgraph: string,
): void {
  assertRulesMatch(schema, rules, subgraph);
  const typeRules = { ...shared.types, ...rules.types };
  for (const root of [schema.getQueryType(), schema.getMutationType()]) {
    if (!root) continue;
    for (const field of Object.values(root.getFields())) {
      const checks = argumentChecks(field.args, typeRules, rules.arguments?.[`${root.name}.${field.name}`] ?? {});
      const resolve = resolvers[root.name]?.[field.name] as GraphQLFieldResolver<unknown, unknown> | undefined;
      if (checks.length === 0 || !resolve) continue;
      resolvers[root.name][field.name] = ((source, args: Record<string, unknown>, context, info) => {
        const issues = checks.flatMap((check) => check(args));
        if (issues.length > 0) throw new ValidationFailedError(issues);
        return resolve(source, args, context, info);
      }) satisfies GraphQLFieldResolver<unknown, unknown>;
    }
  }
}
