/**
 * NetBox 4.2.9's recorded answers to a scenario of 560 requests (`../shared/reference/
 * netbox-4.2-recordings/`, its README gives the format), and the pieces that replay them against
 * this service: placeholders and labels filled from our own earlier answers, our answers
 * normalised as the recordings were (hosts, timestamps, request ids, keys), and a comparison that
 * lists every difference. `test/netbox-replay.test.ts` drives it over HTTP.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { DeliberateDifference, Where } from "../netbox-differences.ts";

/** One recorded request and NetBox's answer to it. */
export interface Recording {
  /** Its number in the scenario (1-based, the file name's prefix). */
  n: number;
  file: string;
  method: string;
  /** With placeholders and labels, as recorded. */
  path: string;
  body: unknown;
  note?: string;
  status: number;
  answer: unknown;
}

/** The scenario's requests in order. */
export function loadRecordings(dir: string): Recording[] {
  return readdirSync(dir)
    .filter((f) => /^\d{3}-.*\.json$/.test(f))
    .sort()
    .map((file) => {
      const raw = JSON.parse(readFileSync(join(dir, file), "utf8"));
      return {
        n: Number(file.slice(0, 3)),
        file,
        method: raw.request.method,
        path: raw.request.path,
        body: raw.request.body,
        note: raw.request.note,
        status: raw.status,
        answer: raw.body,
      };
    });
}

/**
 * Who sent each request: the recordings do not carry headers, so the notes say it ("no token",
 * "read-only token may read", "constrained permission", ...). Every other request is the admin's.
 * A label is the token created by that request (its key, from our answer).
 */
export const TOKEN_OF: Record<number, "none" | "invalid" | `@${number}`> = {
  110: "none",
  111: "invalid",
  513: "@505",
  514: "@505",
  515: "@505",
  516: "@507",
  517: "@507",
  518: "@507",
  519: "@507",
  520: "none",
  521: "none",
  522: "none",
};

/** What the replay has learnt so far: the run's placeholders and the ids behind the labels. */
export interface ReplayState {
  run: string;
  /** First three octets of the run's IPv4 /24. */
  net4: string;
  /** The run's IPv6 /48 without its `::`, e.g. `2001:db8:4e`. */
  net6: string;
  /** The bootstrap superuser's id (label `admin`). */
  admin: number;
  /** `@N` / `@N.i` -> our id of the object that request created. */
  ids: Map<string, number>;
  /** `@N` -> our token key created by request N. */
  keys: Map<string, string>;
}

/** An id that no object has, sent for a label whose object we failed to create. */
export const NO_SUCH_ID = 999_999_999;

const EXACT_LABEL = /^(@\d+(?:\.\d+)?|#\d+|~[a-z-]+:\d+)$/;
const LABEL_IN_TEXT = /@(\d+)(\.\d+)?/g;
/** Labels NetBox's recorder left for ids it could not name: any integer matches them. */
export const WILDCARD = /^(#\d+|~[a-z-]+:\d+)$/;
const WILDCARD_IN_TEXT = /#\d+|~[a-z-]+:\d+/g;

/**
 * The run prefix of the recorded run, which NetBox's recorder left in text NetBox derived from it
 * with a capital (a custom field's label `Ndbc55e int` from the name `<RUN>_int`).
 */
const RECORDED_RUN = "ndbc55e";
const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A text with the run's placeholders (`<RUN>`, `<NET4>`, `<NET6>`) filled. */
export function placeholders(text: string, state: ReplayState): string {
  return text
    .replaceAll("<RUN>", state.run)
    .replaceAll("<NET4>", state.net4)
    .replaceAll("<NET6>", state.net6)
    .replaceAll(capitalised(RECORDED_RUN), capitalised(state.run));
}

/** Replaces the `@N` labels inside a text by our ids; one we do not know stays (in NetBox's answer) or becomes NO_SUCH_ID (in a request). */
export function labelsInText(text: string, state: ReplayState, request: boolean): string {
  return text.replace(LABEL_IN_TEXT, (whole, n: string, item?: string) => {
    const id = state.ids.get(whole) ?? (item ? state.ids.get(`@${n}`) : undefined);
    if (id === undefined) return request ? String(NO_SUCH_ID) : whole;
    return state.ids.has(whole) ? String(id) : `${id}${item}`;
  });
}

/** Keys whose string value is a label for the admin user (`"user": "admin"` in a request, `"id": "admin"`). */
const ADMIN_KEYS = /^(id|user|.*_id)$/;

/** A request's body or NetBox's answer with placeholders filled and labels replaced by our ids (`key`: the value's key). */
function fill(value: unknown, state: ReplayState, key: string, request: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => fill(v, state, key, request));
  if (value && typeof value === "object") {
    const filled = Object.fromEntries(Object.entries(value).map(([k, v]) => [placeholders(k, state), fill(v, state, k, request)]));
    // A cable path's id (`paths/` answers) is NetBox's own number, which the recorder left unlabelled.
    if (!request && "is_complete" in filled && typeof filled.id === "number") filled.id = `#${filled.id}`;
    return filled;
  }
  if (typeof value !== "string") return value;
  if (value === "admin" && ADMIN_KEYS.test(key)) return state.admin;
  if (EXACT_LABEL.test(value)) {
    if (value.startsWith("@")) return state.ids.get(value) ?? (request ? NO_SUCH_ID : value);
    // In NetBox's answer "#N" and "~model:N" are wildcards; in a request "#N" is an id sent on purpose (#999999999).
    if (!request) return value;
    return value.startsWith("#") ? Number(value.slice(1)) : NO_SUCH_ID;
  }
  const text = labelsInText(placeholders(value, state), state, request);
  return text.startsWith("/api/users/users/admin/") ? text.replace("/admin/", `/${state.admin}/`) : text;
}

/** The request to send: placeholders filled, labels replaced by our ids (an unknown one by an id nobody has). */
export function requestOf(rec: Recording, state: ReplayState): { method: string; path: string; body: unknown } {
  const path = labelsInText(placeholders(rec.path, state), state, true)
    .replace(/#(\d+)/g, "$1")
    .replace("/users/users/admin/", `/users/users/${state.admin}/`);
  return { method: rec.method, path, body: rec.body === null ? undefined : fill(rec.body, state, "", true) };
}

/** NetBox's answer with placeholders filled and known labels replaced by our ids; `#N` and `~model:N` stay as wildcards. */
export function expectedOf(rec: Recording, state: ReplayState): unknown {
  return fill(rec.answer, state, "", false);
}

/** Learns the ids of what request N created (`"id": "@N"` or `"@N.i"` in NetBox's answer) from our answer. */
export function learnIds(rec: Recording, ours: unknown, state: ReplayState): void {
  const take = (theirs: any, mine: any) => {
    const label = theirs?.id;
    const own = label === `@${rec.n}` || (typeof label === "string" && label.startsWith(`@${rec.n}.`));
    if (!own || typeof mine?.id !== "number") return;
    state.ids.set(label, mine.id);
    if (typeof mine.key === "string") state.keys.set(label, mine.key);
  };
  if (Array.isArray(rec.answer) && Array.isArray(ours)) rec.answer.forEach((t, i) => take(t, ours[i]));
  else take(rec.answer, ours);
}

/** Keys whose (non-null) timestamp NetBox's recorder replaced by `<ts>`; ours must be a timestamp there too. */
const TIMESTAMP_KEYS = new Set(["created", "last_updated", "date_joined", "last_used", "time"]);
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TOKEN_KEY = /^[0-9a-f]{40}$/i;
/** A minute written inside text (a journal entry's display, `2026-11-24 09:11 (Warning)`). */
const MINUTE_IN_TEXT = /\b\d{4}-\d{2}-\d{2} \d{2}:\d{2}\b/g;

/** Our answer as NetBox's recorder normalised its own: no scheme and host, `<ts>`, `<uuid>`, `<key>`. */
export function normaliseOurs(value: unknown, origin: string, key = ""): unknown {
  if (Array.isArray(value)) return value.map((v) => normaliseOurs(v, origin, key));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normaliseOurs(v, origin, k)]));
  if (typeof value !== "string") return value;
  if (TIMESTAMP_KEYS.has(key) && TIMESTAMP.test(value)) return "<ts>";
  if (UUID.test(value)) return "<uuid>";
  if (key === "key" && TOKEN_KEY.test(value)) return "<key>";
  const text = value.replaceAll(origin, "").replace(MINUTE_IN_TEXT, "<ts>");
  // The recorder gives a link's query decoded (`?parent=10.0.0.0/24`, not `%2F`).
  return text.startsWith("/api/") && text.includes("?") ? decoded(text) : text;
}

function decoded(link: string): string {
  try {
    return decodeURIComponent(link);
  } catch {
    return link;
  }
}

/** NetBox's answer with the minutes inside text replaced as in ours. */
export function normaliseTheirs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normaliseTheirs);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normaliseTheirs(v)]));
  return typeof value === "string" ? value.replace(MINUTE_IN_TEXT, "<ts>") : value;
}

/** One difference between NetBox's answer and ours, at a JSON path (`results[0].site.id`). */
export interface Difference {
  path: string;
  kind: "missing" | "extra" | "value" | "length";
  netbox?: unknown;
  ours?: unknown;
}

function matchesText(expected: string, actual: unknown): boolean {
  if (WILDCARD.test(expected)) return typeof actual === "number" && Number.isInteger(actual);
  if (!WILDCARD_IN_TEXT.test(expected)) return expected === actual;
  WILDCARD_IN_TEXT.lastIndex = 0;
  if (typeof actual !== "string") return false;
  const pattern = expected
    .split(WILDCARD_IN_TEXT)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("\\d+");
  return new RegExp(`^${pattern}$`).test(actual);
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

/** Every difference between NetBox's (filled) answer and ours: missing keys, extra keys, values, lengths. */
export function compareAnswers(netbox: unknown, ours: unknown, path = "", out: Difference[] = []): Difference[] {
  if (isObject(netbox) && isObject(ours)) {
    for (const [k, v] of Object.entries(netbox)) {
      const at = path ? `${path}.${k}` : k;
      if (!(k in ours)) out.push({ path: at, kind: "missing", netbox: v });
      else compareAnswers(v, ours[k], at, out);
    }
    for (const [k, v] of Object.entries(ours)) if (!(k in netbox)) out.push({ path: path ? `${path}.${k}` : k, kind: "extra", ours: v });
    return out;
  }
  if (Array.isArray(netbox) && Array.isArray(ours)) {
    if (netbox.length !== ours.length) out.push({ path, kind: "length", netbox: netbox.length, ours: ours.length });
    for (let i = 0; i < Math.min(netbox.length, ours.length); i++) compareAnswers(netbox[i], ours[i], `${path}[${i}]`, out);
    return out;
  }
  if (typeof netbox === "string" ? matchesText(netbox, ours) : netbox === ours) return out;
  out.push({ path, kind: "value", netbox, ours });
  return out;
}

/** The set of key paths of a JSON value, array positions folded (`results[].site.id`). */
export function keyPaths(value: unknown, path = "", out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) keyPaths(v, `${path}[]`, out);
  else if (isObject(value))
    for (const [k, v] of Object.entries(value)) {
      const at = path ? `${path}.${k}` : k;
      out.add(at);
      keyPaths(v, at, out);
    }
  return out;
}

/** A difference's path with array positions folded: what repeats across objects (`results[].display_url`). */
export const folded = (path: string) => path.replace(/\[\d+\]/g, "[]");

/** The table of deliberate differences, indexed as the replay applies it. */
export interface DeliberateIndex {
  /** Requests whose status SPEC.md decides: ours must answer it; the body is not compared. */
  status: Map<number, { status: number; why: DeliberateDifference }>;
  /** Requests whose body is not compared. */
  body: Map<number, DeliberateDifference>;
  /** A request sent after request N, not counted, to keep our state NetBox's. */
  align: Map<number, { method: string; path: string }>;
  /** The rewrites of each model's objects (by list path). */
  models: Map<string, DeliberateDifference[]>;
  /** Keys NetBox's answer to a create leaves out or gives stale. */
  createAnswer: RegExp[];
}

/** Indexes the table of deliberate differences by request and by model. */
export function indexDeliberate(table: readonly DeliberateDifference[]): DeliberateIndex {
  const index: DeliberateIndex = { status: new Map(), body: new Map(), align: new Map(), models: new Map(), createAnswer: [] };
  for (const d of table) {
    for (const [n, status] of Object.entries(d.status ?? {})) index.status.set(Number(n), { status, why: d });
    for (const n of d.body ?? []) index.body.set(n, d);
    for (const [n, request] of Object.entries(d.align ?? {})) index.align.set(Number(n), request);
    if (d.model) index.models.set(d.model, [...(index.models.get(d.model) ?? []), d]);
    if (d.createAnswer) index.createAnswer.push(d.createAnswer);
  }
  return index;
}

/** `model` of a rewrite that applies to the objects of every model. */
export const EVERY_MODEL = "*";

const MODEL_URL = /^(\/api\/[^/]+\/[^/]+\/)\d+\/$/;

/** Applies one side's model rewrites to every object of an answer recognised by its `url`, innermost first. */
function rewrite(index: DeliberateIndex, side: "ours" | "netbox", value: unknown, where: Omit<Where, "nested">, depth: number): void {
  if (Array.isArray(value)) {
    for (const v of value) rewrite(index, side, v, where, depth);
    return;
  }
  if (!isObject(value)) return;
  for (const v of Object.values(value)) rewrite(index, side, v, where, depth + 1);
  const model = typeof value.url === "string" ? MODEL_URL.exec(value.url)?.[1] : undefined;
  if (!model) return;
  for (const d of [...(index.models.get(model) ?? []), ...(index.models.get(EVERY_MODEL) ?? [])])
    d[side]?.(value, { ...where, nested: depth > 0 });
}

/** Rewrites an answer's objects in place; its own (the object, a list's `results`, a bulk answer's items) are not nested. */
export function rewriteAnswer(index: DeliberateIndex, side: "ours" | "netbox", body: unknown, where: Omit<Where, "nested">): void {
  const results = isObject(body) ? body.results : undefined;
  rewrite(index, side, Array.isArray(results) ? results : body, where, 0);
}

/** One request's line in the report. */
export interface Judgement {
  n: number;
  /** As recorded, with NetBox's labels; `sent` is the path with our ids. */
  request: string;
  sent: string;
  note?: string;
  status: { netbox: number; ours: number };
  statusMatches: boolean;
  /** The status matches and both answers have the same key paths. */
  keysMatch: boolean;
  /** The status matches and the answers are equal after normalisation. */
  whole: boolean;
  /** The deliberate difference that decided this request's status or left its body uncompared. */
  deliberate?: string;
  /** Key paths only NetBox's answer has, and only ours (array positions folded). */
  missingKeys: string[];
  extraKeys: string[];
  differences: Difference[];
}

/** Compares our answer to a recorded request with NetBox's, after normalisation and the deliberate differences. */
export function judge(
  rec: Recording,
  sent: string,
  answer: { status: number; body: unknown },
  state: ReplayState,
  origin: string,
  index: DeliberateIndex,
): Judgement {
  const where = { n: rec.n, method: rec.method, brief: /[?&]brief=(1|true)\b/.test(sent) };
  const ours = normaliseOurs(answer.body, origin);
  rewriteAnswer(index, "ours", ours, where);
  const netbox = normaliseTheirs(expectedOf(rec, state));
  rewriteAnswer(index, "netbox", netbox, where);
  const decided = index.status.get(rec.n);
  const statusMatches = answer.status === (decided ? decided.status : rec.status);
  const compared = !decided && !index.body.has(rec.n);
  // In a create's answer, what NetBox leaves out or gives stale is not counted against ours.
  const created = rec.method === "POST" && rec.status === 201;
  const forgiven = (path: string, kind: Difference["kind"]) =>
    created && (kind === "extra" || kind === "value") && path.split(/[.[\]]+/).some((k) => index.createAnswer.some((re) => re.test(k)));
  const differences = compared ? compareAnswers(netbox, ours).filter((d) => !forgiven(d.path, d.kind)) : [];
  const theirKeys = keyPaths(netbox);
  const ourKeys = keyPaths(ours);
  const missingKeys = compared ? [...theirKeys].filter((k) => !ourKeys.has(k)) : [];
  const extraKeys = compared ? [...ourKeys].filter((k) => !theirKeys.has(k) && !forgiven(k, "extra")) : [];
  return {
    n: rec.n,
    request: `${rec.method} ${rec.path}`,
    sent,
    note: rec.note,
    status: { netbox: rec.status, ours: answer.status },
    statusMatches,
    keysMatch: statusMatches && missingKeys.length === 0 && extraKeys.length === 0,
    whole: statusMatches && differences.length === 0,
    deliberate: (decided?.why ?? index.body.get(rec.n))?.what,
    missingKeys,
    extraKeys,
    differences,
  };
}

/** The kinds of difference (`missing l2vpn_termination`) that repeat most, with the requests showing each. */
export function frequentDifferences(judgements: Judgement[], top: number): { what: string; requests: number; examples: number[] }[] {
  const classes = new Map<string, number[]>();
  for (const j of judgements)
    for (const what of new Set(j.differences.map((d) => `${d.kind} ${folded(d.path).replace(/^(results)?\[\]\.?/, "")}`)))
      classes.set(what, [...(classes.get(what) ?? []), j.n]);
  return [...classes.entries()]
    .sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]))
    .slice(0, top)
    .map(([what, ns]) => ({ what, requests: ns.length, examples: ns.slice(0, 8) }));
}
