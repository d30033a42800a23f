/**
 * JSON text of an answer, built in parts of a bounded size. V8 12 (Node 22) serializes far more
 * slowly once its output passes about 128 KB: a page of 1,000 interfaces (1.3 MB) took 13-15 ms
 * as one `JSON.stringify` and 1.9 ms in ten of 100 rows, and encoding the whole text to UTF-8
 * took 4-7 ms more, against 0.1 ms for the parts one by one (measured). Node 20 and V8 15 (Deno)
 * take about as long either way.
 */

/** Parts aim at this many characters: well under where the serializer slows down. */
const PART_CHARS = 48 * 1024;

/** An array shorter than this is serialized whole: it is small, or its items are few and large. */
const MIN_SPLIT = 32;

/** How deep wrappers (`{"count", ..., "results"}`, GraphQL's `{"data": {...}}`) are followed to a long array. */
const MAX_DEPTH = 3;

/** The JSON text of `value` as parts that, joined, are `JSON.stringify(value)`. */
export function jsonParts(value: unknown): string[] {
  const parts: string[] = [];
  write(value, parts, 0);
  return parts;
}

function write(value: unknown, parts: string[], depth: number): void {
  if (Array.isArray(value) && value.length >= MIN_SPLIT) writeArray(value, parts);
  else if (depth < MAX_DEPTH && isPlainObject(value) && holdsLongArray(value, depth)) writeObject(value, parts, depth);
  else parts.push(JSON.stringify(value) ?? "null");
}

/** The items in runs sized to PART_CHARS, guessed from the run before. */
function writeArray(items: readonly unknown[], parts: string[]): void {
  parts.push("[");
  let run = 16;
  for (let at = 0; at < items.length; ) {
    const slice = items.slice(at, at + run);
    const text = JSON.stringify(slice);
    if (at) parts.push(",");
    parts.push(text.slice(1, -1));
    at += slice.length;
    run = Math.max(1, Math.min(1024, Math.round((run * PART_CHARS) / Math.max(text.length, 1))));
  }
  parts.push("]");
}

function writeObject(object: Record<string, unknown>, parts: string[], depth: number): void {
  let first = true;
  for (const key of Object.keys(object)) {
    const member = object[key];
    // As JSON.stringify: members it cannot write are left out.
    if (member === undefined || typeof member === "function" || typeof member === "symbol") continue;
    parts.push(`${first ? "{" : ","}${JSON.stringify(key)}:`);
    write(member, parts, depth + 1);
    first = false;
  }
  parts.push(first ? "{}" : "}");
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object") return false;
  const proto = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && typeof (value as { toJSON?: unknown }).toJSON !== "function";
}

/** Whether a long array hangs below this object, through wrappers no deeper than MAX_DEPTH. */
function holdsLongArray(object: Record<string, unknown>, depth: number): boolean {
  for (const key in object) {
    const member = object[key];
    if (
      Array.isArray(member)
        ? member.length >= MIN_SPLIT
        : depth + 1 < MAX_DEPTH && isPlainObject(member) && holdsLongArray(member, depth + 1)
    )
      return true;
  }
  return false;
}

const utf8 = new TextEncoder();

/** A part of a JSON text: text, or text already encoded as UTF-8 (a page a driver read as bytes). */
export type JsonPart = string | Uint8Array;

/**
 * The UTF-8 bytes of text given in parts, each encoded into one buffer: the whole text is never
 * built (joining 1.3 MB of parts took 4 ms on Node 22, encoding them 0.1 ms; measured). Also the
 * fastest way to encode one long text: 0.15 ms for 1.3 MB, where `TextEncoder.encode` took 3.4.
 * Parts given as bytes are copied as they are.
 */
export function utf8Bytes(parts: readonly JsonPart[]): Uint8Array<ArrayBuffer> {
  let chars = 0;
  for (const part of parts) chars += part.length;
  // Most answers are ASCII: one byte a character. A part that does not fit grows the buffer to
  // what the rest could take at most (3 bytes a UTF-16 unit).
  let bytes = new Uint8Array(chars);
  let at = 0;
  let left = chars;
  for (const part of parts) {
    if (typeof part !== "string") {
      bytes.set(part, at);
      at += part.length;
      left -= part.length;
      continue;
    }
    let { read, written } = utf8.encodeInto(part, bytes.subarray(at));
    if (read < part.length) {
      const grown = new Uint8Array(at + written + (left - read) * 3);
      grown.set(bytes.subarray(0, at + written));
      bytes = grown;
      const rest = utf8.encodeInto(part.slice(read), bytes.subarray(at + written));
      written += rest.written;
    }
    at += written;
    left -= part.length;
  }
  return at === bytes.length ? bytes : bytes.subarray(0, at);
}
