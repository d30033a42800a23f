/**
 * NetBox 4.2.9's recorded GraphQL answers (`../shared/reference/netbox-4.2-graphql-recordings/`,
 * its README gives the format) and the pieces that replay them: a recorded request with its
 * labels and placeholders filled, NetBox's answer filled the same way, our answer normalised as
 * the recorder normalised NetBox's, and a comparison of status, `data`, `errors` and the whole
 * body. The recordings' format is the REST recordings' (test/support/netbox-replay.ts), whose
 * loader, placeholders, label filling, normalisation and comparison this reuses.
 */
import {
  compareAnswers,
  type Difference,
  labelsInText,
  normaliseOurs,
  normaliseTheirs,
  placeholders,
  type Recording,
  type ReplayState,
} from "./netbox-replay.ts";

export { loadRecordings, type Recording } from "./netbox-replay.ts";

/** The run's placeholders and the dataset's ids (test/support/graphql-dataset.ts). */
export function replayState(run: string, net4: string, net6: string, ids: Map<string, number>): ReplayState {
  return { run, net4, net6, admin: 0, ids, keys: new Map() };
}

/** A label alone (`@11.2`): GraphQL gives ids as strings, so it becomes our id as a string. */
const LABEL = /^@\d+(\.\d+)?$/;

/**
 * A recorded value with placeholders and labels filled: keys too (custom field names carry
 * `<RUN>`); a label we lack stays in NetBox's answer (it then differs) and becomes an id nobody
 * has in a request.
 */
export function filled(value: unknown, state: ReplayState, request: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => filled(v, state, request));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [placeholders(k, state), filled(v, state, request)]));
  if (typeof value !== "string") return value;
  if (LABEL.test(value) && !request) return state.ids.has(value) ? String(state.ids.get(value)) : value;
  return labelsInText(placeholders(value, state), state, request);
}

/** The request to send: `{query, variables, operationName}` or a GET's path, filled. */
export function graphqlRequest(rec: Recording, state: ReplayState): { method: string; path: string; body: unknown } {
  return {
    method: rec.method,
    path: labelsInText(placeholders(rec.path, state), state, true),
    body: rec.body === null || rec.body === undefined ? undefined : filled(rec.body, state, true),
  };
}

/** A body as the recorder kept it: JSON as is, other text as `{_text}` (spaces folded), nothing as null. */
export function recordedBody(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return { _text: text.replace(/\s+/g, " ").trim().slice(0, 200) };
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

/** Of each error, what the comparison reads: `message`, `path` and `locations` (not `extensions`). */
function comparedErrors(errors: unknown): unknown {
  if (!Array.isArray(errors)) return errors;
  return errors.map((e) =>
    isObject(e) ? Object.fromEntries(Object.entries(e).filter(([k]) => k === "message" || k === "path" || k === "locations")) : e,
  );
}

/** A body with its errors reduced to what is compared. */
function comparedBody(body: unknown): unknown {
  if (!isObject(body) || !("errors" in body)) return body;
  return { ...body, errors: comparedErrors(body.errors) };
}

/** One request's line in the report. */
export interface GraphqlJudgement {
  n: number;
  note?: string;
  /** The recorded query (or GET path), with NetBox's labels. */
  request: string;
  status: { netbox: number; ours: number };
  statusMatches: boolean;
  /** The status matches and `data` is deep-equal (for a body without `data`, the whole body). */
  dataMatches: boolean;
  /** The status matches and the whole bodies are equal (errors by message, path and locations). */
  whole: boolean;
  /** The row of test/graphql-differences.ts that decided this request. */
  deliberate?: string;
  /** Only the messages differ, and only in their quotes (graphql-js writes `"`, graphql-core `'`). */
  quotesOnly?: boolean;
  differences: Difference[];
}

/** The recorded query (a GET's from its path). */
export function recordedQuery(rec: Recording): string {
  if (rec.method !== "GET") return String((rec.body as { query?: string } | null)?.query ?? "");
  return new URLSearchParams(rec.path.split("?")[1] ?? "").get("query") ?? "";
}

/** What stands in the recorded text for a value whose length was NetBox's own: an id's label, a network. */
const STAND_IN = /@\d+(\.\d+)?|<NET4>|<NET6>/;

/**
 * NetBox's answer with the columns of its errors' locations that follow a label or a network on
 * their line made wildcards (`#N`, any integer): NetBox's ids and networks had lengths the
 * recording does not keep, so where such a column falls in our query is unknown. (`<RUN>` has the
 * recorded run's length: the replay's run prefix is as long.)
 */
export function looseLocations(answer: unknown, query: string): unknown {
  if (!isObject(answer) || !Array.isArray(answer.errors)) return answer;
  const lines = query.split("\n");
  const errors = answer.errors.map((e) => {
    if (!isObject(e) || !Array.isArray(e.locations)) return e;
    const locations = e.locations.map((l: { line: number; column: number }) => {
      const at = STAND_IN.exec(lines[l.line - 1] ?? "")?.index;
      return at !== undefined && l.column > at + 1 ? { ...l, column: `#${l.column}` } : l;
    });
    return { ...e, locations };
  });
  return { ...answer, errors };
}

const quotes = (v: unknown) => (typeof v === "string" ? v.replaceAll('"', "'") : v);

/**
 * Compares our answer with the expected one (NetBox's, or the differences table's `answer`), both
 * as recorded (labels, placeholders): `ours` is our raw body, parsed or `{_text}`.
 */
export function judgeGraphql(
  rec: Recording,
  expectedAnswer: { status: number; body: unknown },
  ours: { status: number; body: unknown },
  state: ReplayState,
  origin: string,
  deliberate?: { why: string; compared: boolean },
): GraphqlJudgement {
  const request = rec.method === "GET" ? `GET ${rec.path}` : recordedQuery(rec);
  const base = { n: rec.n, note: rec.note, request, status: { netbox: rec.status, ours: ours.status } };
  if (deliberate && !deliberate.compared)
    return { ...base, statusMatches: true, dataMatches: true, whole: true, deliberate: deliberate.why, differences: [] };
  const theirs = comparedBody(normaliseTheirs(filled(looseLocations(expectedAnswer.body, recordedQuery(rec)), state, false)));
  const mine = comparedBody(normaliseOurs(ours.body, origin));
  const statusMatches = ours.status === expectedAnswer.status;
  const differences = compareAnswers(theirs, mine);
  const hasData = isObject(theirs) && "data" in theirs;
  const missingData: Difference[] = [{ path: "data", kind: "missing" }];
  const dataDifferences = !hasData ? differences : isObject(mine) && "data" in mine ? compareAnswers(theirs.data, mine.data) : missingData;
  const quotesOnly =
    differences.length > 0 &&
    differences.every((d) => d.kind === "value" && /^errors\[\d+\]\.message$/.test(d.path) && quotes(d.netbox) === quotes(d.ours));
  return {
    ...base,
    statusMatches,
    dataMatches: statusMatches && dataDifferences.length === 0,
    whole: statusMatches && differences.length === 0,
    deliberate: deliberate?.why,
    ...(quotesOnly ? { quotesOnly } : {}),
    differences,
  };
}

/** A difference in a line: `device_list[2].name: NetBox "x", ours "y"`. */
export function describeDifference(d: Difference): string {
  const show = (v: unknown) => {
    const text = JSON.stringify(v) ?? "undefined";
    return text.length > 160 ? `${text.slice(0, 157)}...` : text;
  };
  const at = d.path || "(body)";
  if (d.kind === "missing") return `${at}: missing (NetBox ${show(d.netbox)})`;
  if (d.kind === "extra") return `${at}: only ours (${show(d.ours)})`;
  if (d.kind === "length") return `${at}: ${d.netbox} items in NetBox's, ${d.ours} in ours`;
  return `${at}: NetBox ${show(d.netbox)}, ours ${show(d.ours)}`;
}
