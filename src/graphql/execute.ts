import type { Registry } from "../schema/shapes.ts";
import type { Actor } from "../schema/actor.ts";
import {
  type DocumentNode,
  execute,
  type FragmentDefinitionNode,
  GraphQLError,
  getVariableValues,
  Kind,
  type OperationDefinitionNode,
  parse,
  specifiedRules,
  validate,
} from "graphql";
import { readBatch } from "../engine/unit-of-work.ts";
import { scopeKey } from "../engine/scope.ts";
import { remembered } from "../lib/memo.ts";
import { buildGraphSchema, type GraphSchema } from "./schema.ts";
import { compileOperation, type CompiledQuery } from "./compile.ts";
import { limitRules } from "./limits.ts";

/*
 * One GraphQL request, start to end: parse and validate with graphql-js (the reference
 * implementation, also for introspection), then compile the operation into one statement that
 * builds the whole answer as JSON, run it in one round trip, and join its root fields into the
 * response's text without parsing them.
 */

/** A request as GraphQL over HTTP carries it. */
export interface GraphRequest {
  readonly query: string;
  readonly variables?: Record<string, unknown> | null;
  readonly operationName?: string | null;
}

const schemas = new WeakMap<Registry, GraphSchema>();

/** The schema of a registry, built on first use. */
export function graphSchema(registry: Registry): GraphSchema {
  let gs = schemas.get(registry);
  if (!gs) schemas.set(registry, (gs = buildGraphSchema(registry)));
  return gs;
}

/** A parsed and validated document, or the errors that refuse it. */
type Checked = { readonly document: DocumentNode } | { readonly errors: readonly GraphQLError[] };

/** Documents are parsed and validated once per text and limits (the limits are settings). */
const checkedDocuments = new Map<string, Checked>();
/** Operations are compiled once per document, operation, variables and requester's scope. */
const compiled = new Map<string, CompiledQuery | { readonly errors: readonly GraphQLError[] }>();

const errorBody = (errors: readonly GraphQLError[]): string[] => [JSON.stringify({ data: null, errors: errors.map((e) => e.toJSON()) })];

/**
 * Answers a GraphQL request as the JSON text of `{data, errors}`, in parts that joined are that
 * text: the root fields' JSON as SQLite wrote it, never copied into one string (1.3 MB for a
 * tenant's 1,000 devices with their interfaces).
 */
export async function executeGraphql(registry: Registry, ctx: Actor, request: GraphRequest): Promise<string[]> {
  const gs = graphSchema(registry);
  const limits = ctx.config;
  const checked = remembered(
    checkedDocuments,
    `${limits.GRAPHQL_MAX_DEPTH} ${limits.GRAPHQL_MAX_ALIASES}\n${request.query}`,
    (): Checked => {
      let document: DocumentNode;
      try {
        document = parse(request.query, { maxTokens: 20_000 });
      } catch (error) {
        return { errors: [error as GraphQLError] };
      }
      const errors = validate(gs.schema, document, [...specifiedRules, ...limitRules(limits)]);
      return errors.length ? { errors: errors.map(pythonQuoted) } : { document };
    },
    256,
  );
  if ("errors" in checked) return errorBody(checked.errors);
  const { document } = checked;
  const operation = operationOf(document, request.operationName ?? null);
  if (!operation) return errorBody([new GraphQLError(`Unknown operation named "${request.operationName}".`)]);
  // Read-only, as NetBox's: the schema has no mutations or subscriptions.
  if (operation.operation !== "query")
    return errorBody([new GraphQLError(`Schema is not configured to execute ${operation.operation} operation.`, { nodes: [operation] })]);
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;

  const key = `${scopeKey(ctx)}\n${operation.name?.value ?? ""}\n${JSON.stringify(request.variables ?? {})}\n${request.query}`;
  const plan = remembered(
    compiled,
    key,
    () => {
      const coerced = getVariableValues(gs.schema, operation.variableDefinitions ?? [], request.variables ?? {});
      if (coerced.errors) return { errors: coerced.errors };
      try {
        const query = compileOperation(gs, ctx, operation, fragments, coerced.coerced);
        if (query.cost > limits.GRAPHQL_MAX_COST)
          return {
            errors: [
              new GraphQLError(
                `The query costs ${query.cost}, more than GRAPHQL_MAX_COST (${limits.GRAPHQL_MAX_COST}): ask for fewer fields, or page its lists with pagination: {limit}.`,
              ),
            ],
          };
        return query;
      } catch (error) {
        if (error instanceof GraphQLError) return { errors: [error] };
        throw error;
      }
    },
    256,
  );
  if ("errors" in plan) return errorBody(plan.errors);

  let result: { rows: Record<string, unknown>[] };
  try {
    [result] = plan.statement ? await readBatch(ctx, [plan.statement]) : [{ rows: [] }];
  } catch (error) {
    // SQLite compiles a regex lookup's pattern when it runs: a pattern it cannot read is the query's error.
    const message = (error as { code?: string; message?: string }).code === "SQLITE_ERROR" ? String((error as Error).message) : null;
    if (message !== null && /regex/.test(request.query)) return errorBody([new GraphQLError(`Invalid regular expression: ${message}`)]);
    throw error;
  }
  const row: Record<string, unknown> = result.rows[0] ?? {};
  const values = plan.roots.map((_, i) => {
    const text = row[`c${i}`];
    return text === null || text === undefined ? null : String(text);
  });
  const missing = plan.roots.findIndex((root, i) => root.detail && values[i] === null);
  if (missing >= 0) {
    const root = plan.roots[missing];
    return errorBody([
      new GraphQLError(`${root.detail!.className} matching query does not exist.`, { nodes: [root.node], path: [root.key] }),
    ]);
  }
  const texts = plan.roots.map((root, i) => (root.post ? JSON.stringify(root.post(JSON.parse(values[i]!))) : values[i]));
  if (!plan.introspection)
    return ['{"data":{', ...plan.roots.flatMap((root, i) => [`${i ? "," : ""}${JSON.stringify(root.key)}:`, texts[i] ?? "null"]), "}}"];

  // Introspection is graphql-js's to answer; the fields beside it are the ones just read.
  const rootValue = Object.fromEntries(plan.roots.map((root, i) => [root.key, JSON.parse(texts[i]!)]));
  const answer = await execute({
    schema: gs.schema,
    document,
    rootValue,
    variableValues: request.variables ?? {},
    ...(operation.name ? { operationName: operation.name.value } : {}),
    fieldResolver: (source, _args, _context, info) => (source as Record<string, unknown> | null)?.[info.path.key],
  });
  return [JSON.stringify(answer)];
}

/**
 * A validation error worded as NetBox's graphql-core words it: names in single quotes
 * (`Cannot query field 'x' on type 'Query'.`), where graphql-js uses double ones. Values printed in
 * a message ("cannot represent" ...) keep GraphQL's double quotes, in both.
 */
function pythonQuoted(error: GraphQLError): GraphQLError {
  if (error.message.includes("cannot represent")) return error;
  const message = error.message.replace(/"(\[*[_A-Za-z][_0-9A-Za-z.]*!?\]*!?)"/g, "'$1'");
  return message === error.message
    ? error
    : new GraphQLError(message, {
        nodes: error.nodes,
        source: error.source,
        positions: error.positions,
        path: error.path,
        originalError: error.originalError,
        extensions: error.extensions,
      });
}

/** The operation to run: the one named, else the first (as NetBox answers a document of several). */
function operationOf(document: DocumentNode, name: string | null): OperationDefinitionNode | null {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  return name === null ? (operations[0] ?? null) : (operations.find((o) => o.name?.value === name) ?? null);
}
