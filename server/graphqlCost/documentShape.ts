import {
  type DocumentNode,
  type FragmentDefinitionNode,
  Kind,
  Lexer,
  parse,
  type SelectionSetNode,
  Source,
  TokenKind,
} from 'graphql';
import {
  LimitCode,
  MAX_ALIASES,
  MAX_DEPTH,
  MAX_FIELDS,
  MAX_INTROSPECTION_DEPTH,
  MAX_NESTING,
  MAX_TOKENS,
} from './policy.js';

/** Why a document is refused before GraphQL validation, for the caller. */
export interface ShapeRefusal {
  code: LimitCode;
  message: string;
  limit: number;
}

export type ShapeVerdict = { document: DocumentNode } | { refusal: ShapeRefusal } | { unparsable: true };

const OPENING = new Set<TokenKind>([TokenKind.BRACE_L, TokenKind.BRACKET_L, TokenKind.PAREN_L]);
const CLOSING = new Set<TokenKind>([TokenKind.BRACE_R, TokenKind.BRACKET_R, TokenKind.PAREN_R]);

/**
 * Checks a `/graphql` document against the limits that do not need the schema: its tokens and
 * nesting while lexing (before the parser, whose recursion a deep enough document exhausts),
 * then the depth, aliases and fields of each operation, fragments expanded. Every count stops
 * at its limit, so a hostile document costs at most one pass over {@link MAX_TOKENS} tokens.
 * A document that does not lex or parse is `unparsable`: Apollo Server reports its syntax error.
 * graphql-armor checks depth and aliases only as validation rules, after the parse and beside the
 * comparison of same-named fields: decision 017, "Library first", has the figures.
 */
export function checkDocumentShape(text: string): ShapeVerdict {
  const lexical = checkTokens(text);
  if (lexical !== 'ok') return lexical;
  let document: DocumentNode;
  try {
    document = parse(text, { maxTokens: MAX_TOKENS });
  } catch {
    return { unparsable: true };
  }
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    const refusal = walk(definition.selectionSet, 1, false, { fragments, visiting: new Set(), fields: 0, aliases: 0 });
    if (refusal) return { refusal };
  }
  return { document };
}

function checkTokens(text: string): 'ok' | { refusal: ShapeRefusal } | { unparsable: true } {
  const lexer = new Lexer(new Source(text));
  let tokens = 0;
  let nesting = 0;
  try {
    for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
      tokens += 1;
      if (tokens > MAX_TOKENS) return { refusal: tokenRefusal() };
      if (OPENING.has(token.kind)) {
        nesting += 1;
        if (nesting > MAX_NESTING) return { refusal: nestingRefusal() };
      } else if (CLOSING.has(token.kind)) {
        nesting -= 1;
      }
    }
  } catch {
    return { unparsable: true };
  }
  return 'ok';
}

interface Walk {
  fragments: Map<string, FragmentDefinitionNode>;
  /** Fragments being expanded on the current path: a cycle is left to validation to refuse. */
  visiting: Set<string>;
  fields: number;
  aliases: number;
}

/** Fields of `selectionSet`, which sit at `depth` (the operation's own fields are at 1). */
function walk(
  selectionSet: SelectionSetNode,
  depth: number,
  introspection: boolean,
  state: Walk,
): ShapeRefusal | undefined {
  for (const selection of selectionSet.selections) {
    // A spread or an inline fragment counts as a field: a chain of fragments spreading the
    // next one twice expands exponentially without a single field of its own.
    state.fields += 1;
    if (state.fields > MAX_FIELDS) return fieldsRefusal();
    if (selection.kind === Kind.FIELD) {
      if (selection.alias) {
        state.aliases += 1;
        if (state.aliases > MAX_ALIASES) return aliasesRefusal();
      }
      if (!selection.selectionSet) continue;
      const name = selection.name.value;
      const inIntrospection = introspection || name === '__schema' || name === '__type';
      const limit = inIntrospection ? MAX_INTROSPECTION_DEPTH : MAX_DEPTH;
      if (depth + 1 > limit) return depthRefusal(limit);
      const refusal = walk(selection.selectionSet, depth + 1, inIntrospection, state);
      if (refusal) return refusal;
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const refusal = walk(selection.selectionSet, depth, introspection, state);
      if (refusal) return refusal;
    } else {
      const name = selection.name.value;
      const fragment = state.fragments.get(name);
      if (!fragment || state.visiting.has(name)) continue;
      state.visiting.add(name);
      const refusal = walk(fragment.selectionSet, depth, introspection, state);
      state.visiting.delete(name);
      if (refusal) return refusal;
    }
  }
  return undefined;
}

function tokenRefusal(): ShapeRefusal {
  return {
    code: LimitCode.tokens,
    limit: MAX_TOKENS,
    message: `The document has more than ${MAX_TOKENS} tokens, the limit of /graphql: pass values as variables, or split it into several requests.`,
  };
}

function nestingRefusal(): ShapeRefusal {
  return {
    code: LimitCode.depth,
    limit: MAX_NESTING,
    message: `The document nests braces, brackets or parentheses more than ${MAX_NESTING} deep.`,
  };
}

function depthRefusal(limit: number): ShapeRefusal {
  return {
    code: LimitCode.depth,
    limit,
    message: `The operation nests fields more than ${limit} deep (fragments expanded), the limit of /graphql.`,
  };
}

function aliasesRefusal(): ShapeRefusal {
  return {
    code: LimitCode.aliases,
    limit: MAX_ALIASES,
    message: `The operation has more than ${MAX_ALIASES} aliases (fragments expanded), the limit of /graphql: split it into several requests.`,
  };
}

function fieldsRefusal(): ShapeRefusal {
  return {
    code: LimitCode.fields,
    limit: MAX_FIELDS,
    message: `The operation selects more than ${MAX_FIELDS} fields (fragments expanded, each spread counting as one), the limit of /graphql: split it into several requests.`,
  };
}
