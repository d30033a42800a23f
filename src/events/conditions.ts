/**
 * NetBox's event-rule condition language: `{"attr": "status.value", "value": "active", "op": "eq",
 * "negate": false}`, or a set `{"and": [...]}` / `{"or": [...]}` whose items may be sets again.
 * Checked when a rule is saved (`conditionProblem`), evaluated against an object's REST
 * representation when its event is delivered (`conditionsMatch`).
 */

const OPERATORS = ["eq", "gt", "gte", "lt", "lte", "in", "contains", "regex"] as const;
type Operator = (typeof OPERATORS)[number];

/** The operators NetBox allows for each type of `value`. */
function allowedOperators(value: unknown): readonly Operator[] {
  if (value === null) return ["eq"];
  if (typeof value === "string") return ["eq", "contains", "regex"];
  if (typeof value === "boolean") return ["eq", "contains"];
  if (typeof value === "number") return ["eq", "gt", "gte", "lt", "lte", "contains"];
  if (Array.isArray(value)) return ["eq", "in", "contains"];
  return [];
}

const pyClass = (x: unknown) =>
  `<class '${x === null ? "NoneType" : Array.isArray(x) ? "list" : ({ string: "str", number: Number.isInteger(x) ? "int" : "float", boolean: "bool", object: "dict" } as Record<string, string>)[typeof x] ?? typeof x}'>`;

const MAX_DEPTH = 16;

/** What is wrong with a ruleset, in NetBox's words; null when it is valid (or absent). */
export function conditionProblem(ruleset: unknown, depth = 0): string | null {
  if (ruleset === null || ruleset === undefined) return depth === 0 ? null : "Ruleset must be a dictionary, not <class 'NoneType'>.";
  if (typeof ruleset !== "object" || Array.isArray(ruleset)) return `Ruleset must be a dictionary, not ${pyClass(ruleset)}.`;
  if (depth > MAX_DEPTH) return `Conditions may be nested at most ${MAX_DEPTH} levels deep.`;
  const keys = Object.keys(ruleset);
  if (depth === 0 && keys.length === 0) return null;
  const logic = keys.length === 1 && ["and", "or"].includes(keys[0].toLowerCase()) ? keys[0] : null;
  if (logic === null && keys.length === 1 && !["attr", "value", "op", "negate"].includes(keys[0])) {
    return "Invalid logic type: must be 'AND' or 'OR'. Please check documentation.";
  }
  if (logic !== null) {
    const items = (ruleset as Record<string, unknown>)[logic];
    if (!Array.isArray(items)) return `Ruleset must be a list of conditions, not ${pyClass(items)}.`;
    for (const item of items) {
      const problem = conditionProblem(item, depth + 1);
      if (problem) return problem;
    }
    return null;
  }
  const c = ruleset as Record<string, unknown>;
  if (!keys.every((k) => ["attr", "value", "op", "negate"].includes(k)) || !("attr" in c) || !("value" in c)) {
    return "Incorrect key(s) informed. Please check documentation.";
  }
  if (typeof c.attr !== "string" || c.attr === "") return "A condition's attr must be a non-empty string.";
  const op = c.op ?? "eq";
  if (!OPERATORS.includes(op as Operator)) return `Unknown operator: ${String(op)}. Must be one of: ${OPERATORS.join(", ")}`;
  if (!allowedOperators(c.value).includes(op as Operator)) return `Invalid operator for value type: ${String(op)} cannot be used with ${pyClass(c.value)}.`;
  if (op === "regex") {
    try {
      new RegExp(String(c.value));
    } catch {
      return `Invalid regular expression: ${String(c.value)}`;
    }
  }
  if ("negate" in c && typeof c.negate !== "boolean") return "A condition's negate must be true or false.";
  return null;
}

class MissingAttribute extends Error {}

/** The value at a dotted path; a list on the way applies the rest of the path to each element. */
function valueAt(data: unknown, path: readonly string[]): unknown {
  if (path.length === 0) return data;
  if (Array.isArray(data)) return data.map((x) => valueAt(x, path));
  if (data === null || typeof data !== "object" || !Object.hasOwn(data, path[0])) throw new MissingAttribute(path[0]);
  return valueAt((data as Record<string, unknown>)[path[0]], path.slice(1));
}

const equal = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

function holds(c: Record<string, unknown>, data: unknown): boolean {
  const actual = valueAt(data, String(c.attr).split("."));
  const value = c.value;
  let result: boolean;
  switch ((c.op ?? "eq") as Operator) {
    case "eq": result = equal(actual, value); break;
    case "gt": result = typeof actual === "number" && actual > (value as number); break;
    case "gte": result = typeof actual === "number" && actual >= (value as number); break;
    case "lt": result = typeof actual === "number" && actual < (value as number); break;
    case "lte": result = typeof actual === "number" && actual <= (value as number); break;
    case "in": result = Array.isArray(value) && value.some((v) => equal(v, actual)); break;
    case "contains":
      result = typeof actual === "string" ? typeof value === "string" && actual.includes(value) : Array.isArray(actual) && actual.some((v) => equal(v, value));
      break;
    // Python's re.match: anchored at the start only.
    case "regex": result = typeof actual === "string" && new RegExp(`^(?:${String(value)})`).test(actual); break;
  }
  return c.negate === true ? !result : result;
}

function evaluate(ruleset: Record<string, unknown>, data: unknown): boolean {
  const keys = Object.keys(ruleset);
  if (keys.length === 0) return true;
  if (keys.length === 1 && ["and", "or"].includes(keys[0].toLowerCase())) {
    const items = ruleset[keys[0]] as Record<string, unknown>[];
    return keys[0].toLowerCase() === "and" ? items.every((i) => evaluate(i, data)) : items.some((i) => evaluate(i, data));
  }
  return holds(ruleset, data);
}

/**
 * True when `data` (an object's REST representation) satisfies the ruleset; no ruleset matches
 * everything. A path that names nothing makes the whole rule false, as in NetBox.
 */
export function conditionsMatch(ruleset: unknown, data: unknown): boolean {
  if (ruleset === null || ruleset === undefined || typeof ruleset !== "object") return true;
  try {
    return evaluate(ruleset as Record<string, unknown>, data);
  } catch (error) {
    if (error instanceof MissingAttribute) return false;
    throw error;
  }
}
