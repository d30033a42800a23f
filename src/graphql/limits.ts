import type { Config } from "../config.ts";
import {
  type ASTVisitor,
  type FragmentDefinitionNode,
  GraphQLError,
  Kind,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from "graphql";

/*
 * Limits checked with the other validation rules, before anything runs: how deep selections nest
 * (through fragments too) and how many fields are aliased. The cost budget is the compiler's,
 * which knows what each list may hold (compile.ts).
 */

/**
 * The deepest nesting of selections below `set`, following fragment spreads; a fragment's depth is
 * found once (`known`), so spreads of spreads cost nothing more, and a cycle (refused by another
 * rule) is not followed.
 */
function depthOf(
  set: SelectionSetNode,
  fragments: Record<string, FragmentDefinitionNode>,
  known: Map<string, number>,
  seen: ReadonlySet<string> = new Set(),
  introspection = false,
): number {
  let deepest = 0;
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      // Introspection nests as deep as type references go (GraphiQL's query: 15); its own cap applies.
      if (!introspection && (selection.name.value === "__schema" || selection.name.value === "__type")) continue;
      deepest = Math.max(deepest, selection.selectionSet ? 1 + depthOf(selection.selectionSet, fragments, known, seen, introspection) : 1);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      deepest = Math.max(deepest, depthOf(selection.selectionSet, fragments, known, seen, introspection));
    } else {
      const name = selection.name.value;
      const fragment = fragments[name];
      if (!fragment || seen.has(name)) continue;
      let depth = known.get(name);
      if (depth === undefined)
        known.set(name, (depth = depthOf(fragment.selectionSet, fragments, known, new Set([...seen, name]), introspection)));
      deepest = Math.max(deepest, depth);
    }
  }
  return deepest;
}

/** How deep introspection may nest: type references nest a few levels (GraphiQL's schema query is 15 deep). */
const INTROSPECTION_DEPTH = 20;

/**
 * Refuses an operation whose selections nest deeper than GRAPHQL_MAX_DEPTH (root fields are
 * depth 1), or whose introspection nests deeper than INTROSPECTION_DEPTH.
 */
const depthLimit =
  (max: number): ValidationRule =>
  (context: ValidationContext): ASTVisitor => {
    const fragments: Record<string, FragmentDefinitionNode> = {};
    for (const d of context.getDocument().definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
    return {
      OperationDefinition(node) {
        const depth = depthOf(node.selectionSet, fragments, new Map());
        const introspection = depthOf(node.selectionSet, fragments, new Map(), new Set(), true);
        if (introspection > depth && introspection > INTROSPECTION_DEPTH)
          context.reportError(
            new GraphQLError(`The introspection query nests ${introspection} levels deep, more than ${INTROSPECTION_DEPTH}.`, {
              nodes: [node],
            }),
          );
        if (depth > max)
          context.reportError(
            new GraphQLError(`The query nests ${depth} levels deep, more than GRAPHQL_MAX_DEPTH (${max}).`, { nodes: [node] }),
          );
      },
    };
  };

/** Refuses a document with more aliased fields than GRAPHQL_MAX_ALIASES. */
const aliasLimit =
  (max: number): ValidationRule =>
  (context: ValidationContext): ASTVisitor => {
    let aliases = 0;
    return {
      Field(node) {
        if (node.alias) aliases++;
      },
      Document: {
        leave(node) {
          if (aliases > max)
            context.reportError(
              new GraphQLError(`The query has ${aliases} aliases, more than GRAPHQL_MAX_ALIASES (${max}).`, { nodes: [node] }),
            );
        },
      },
    };
  };

export const limitRules = (config: Pick<Config, "GRAPHQL_MAX_DEPTH" | "GRAPHQL_MAX_ALIASES">): ValidationRule[] => [
  depthLimit(config.GRAPHQL_MAX_DEPTH),
  aliasLimit(config.GRAPHQL_MAX_ALIASES),
];
