/**
 * NetBox's event-rule condition language: `{"attr": "status.value", "value": "active", "op": "eq",
 * "negate": false}`, or a set `{"and": [...]}` / `{"or": [...]}` whose items may be sets again.
 * Checked when a rule is saved (`conditionProblem`), evaluated against an object's REST
 * representation when its event is delivered (`conditionsMatch`).
 */
import { byCodeUnits } from "../../lib/code-order.ts";

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
  `<class '${x === null ? "NoneType" : Array.isArray(x) ? "list" : (({ string: "str", number: Number.isInteger(x) ? "int" : "float", boolean: "bool", object: "dict" } as Record<string, string>)[typeof x] ?? typeof x)}'>`;

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
  if (!allowedOperators(c.value).includes(op as Operator))
    return `Invalid operator for value type: ${String(op)} cannot be used with ${pyClass(c.value)}.`;
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

/**
 * The value at a dotted path, as NetBox reads it: a list on the way applies the next key to each
 * element; a key that is absent, or a step through null (or anything else that holds no keys),
 * gives null for the whole path. The operator and `negate` then apply to that null.
 */
function valueAt(data: unknown, path: readonly string[]): unknown {
  let value = data;
  for (const key of path) {
    const items = Array.isArray(value) ? value.map((item) => keyOf(item, key)) : [keyOf(value, key)];
    if (items.some((item) => item === ABSENT)) return null;
    value = Array.isArray(value) ? items : items[0];
  }
  return value;
}

const ABSENT = Symbol("absent");

function keyOf(value: unknown, key: string): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value) || !Object.hasOwn(value, key)) return ABSENT;
  return (value as Record<string, unknown>)[key];
}

/** Python's `==` on JSON values: 1 == 1.0 == True, lists by element, dicts by keys whatever their order. */
function pyEqual(a: unknown, b: unknown): boolean {
  const scalar = (x: unknown) => typeof x === "number" || typeof x === "boolean";
  if (scalar(a) && scalar(b)) return Number(a) === Number(b);
  if (Array.isArray(a) || Array.isArray(b))
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => pyEqual(x, b[i]));
  if (a !== null && b !== null && typeof a === "object" && typeof b === "object") {
    const ka = Object.keys(a);
    return (
      ka.length === Object.keys(b).length &&
      ka.every((k) => Object.hasOwn(b, k) && pyEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
    );
  }
  return a === b;
}

/**
 * Python's ordering of two values, or null where Python raises TypeError (None against a number,
 * a string against a number). NetBox lets that error escape; here the comparison does not hold.
 */
function pyCompare(a: unknown, b: unknown): number | null {
  const numeric = (x: unknown) => typeof x === "number" || typeof x === "boolean";
  if (numeric(a) && numeric(b)) return Number(a) - Number(b);
  if (typeof a === "string" && typeof b === "string") return byCodeUnits(a, b);
  return null;
}

/** Python's `needle in haystack`: a substring, a list member, or a dict key; false where Python raises. */
function pyContains(haystack: unknown, needle: unknown): boolean {
  if (typeof haystack === "string") return typeof needle === "string" && haystack.includes(needle);
  if (Array.isArray(haystack)) return haystack.some((v) => pyEqual(v, needle));
  if (haystack !== null && typeof haystack === "object") return typeof needle === "string" && Object.hasOwn(haystack, needle);
  return false;
}

function holds(c: Record<string, unknown>, data: unknown): boolean {
  const actual = valueAt(data, String(c.attr).split("."));
  const value = c.value;
  const order = (test: (n: number) => boolean) => {
    const n = pyCompare(actual, value);
    return n !== null && test(n);
  };
  let result: boolean;
  switch ((c.op ?? "eq") as Operator) {
    case "eq":
      result = pyEqual(actual, value);
      break;
    case "gt":
      result = order((n) => n > 0);
      break;
    case "gte":
      result = order((n) => n >= 0);
      break;
    case "lt":
      result = order((n) => n < 0);
      break;
    case "lte":
      result = order((n) => n <= 0);
      break;
    case "in":
      result = pyContains(value, actual);
      break;
    case "contains":
      result = pyContains(actual, value);
      break;
    // Python's re.match: anchored at the start only.
    case "regex":
      result = typeof actual === "string" && new RegExp(`^(?:${String(value)})`).test(actual);
      break;
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
 * everything. A path that names nothing reads as null, so `{"attr": "status.value", "value":
 * "active", "negate": true}` matches an object without a status, as in NetBox.
 */
export function conditionsMatch(ruleset: unknown, data: unknown): boolean {
  if (ruleset === null || ruleset === undefined || typeof ruleset !== "object") return true;
  return evaluate(ruleset as Record<string, unknown>, data);
}
