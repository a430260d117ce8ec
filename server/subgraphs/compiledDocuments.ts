import { type DocumentNode, getOperationAST, type GraphQLSchema, parse, validate } from 'graphql';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';

/** Far more than the API process ever sends: its routes' documents and the gateway's query-plan fetches. */
const MAX_DOCUMENTS = 1_000;

/**
 * The documents a subgraph service is sent, compiled once by graphql-jit, as the facade compiles
 * its routes in process: the API process sends a few fixed documents again and again, and Apollo
 * Server's interpretation of each, field by field, cost more than the resolvers (issue 21's bench).
 * A document that does not parse, validate or compile is not kept: Apollo Server answers it, with
 * its usual errors.
 */
export class CompiledDocuments {
  private readonly plans = new Map<string, CompiledQuery | null>();

  constructor(private readonly schema: GraphQLSchema) {}

  plan(query: string, operationName: string | undefined): CompiledQuery | null {
    const key = `${operationName ?? ''}\n${query}`;
    let plan = this.plans.get(key);
    if (plan === undefined) {
      plan = this.compile(query, operationName);
      // Oldest first: documents the API process sends are few, so this only bounds a flood of new ones.
      if (this.plans.size >= MAX_DOCUMENTS) this.plans.delete(this.plans.keys().next().value!);
      this.plans.set(key, plan);
    }
    return plan;
  }

  private compile(query: string, operationName: string | undefined): CompiledQuery | null {
    let document: DocumentNode;
    try {
      document = parse(query);
    } catch {
      return null;
    }
    if (validate(this.schema, document).length > 0) return null;
    const compiled = compileQuery(this.schema, document, operationName);
    if (!isCompiledQuery(compiled)) return null;
    // graphql-jit leaves it unset; a trace names the document's run by it.
    compiled.operationName ??= getOperationAST(document, operationName)?.name?.value;
    return compiled;
  }
}
