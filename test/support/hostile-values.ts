import fc from "fast-check";

/**
 * Values a careless script or a hostile client sends, as fast-check arbitraries, so a failing
 * request shrinks to the smallest one that still fails. Each list holds what once broke a
 * service like ours: integers past 64 bits, NUL, lone surrogates, SQL and LIKE metacharacters,
 * malformed addresses, template syntax.
 */
const TEXTS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\uD800",
  "\uDFFF",
  "x\uDBFFy",
  "\uFEFF",
  "\u202E",
  "é",
  "💩",
  "'",
  '"',
  "\\",
  "%",
  "_",
  "*",
  "'; DROP TABLE dcim_site; --",
  "1 OR 1=1",
  '" OR ""="',
  "1); DELETE FROM users_user; --",
  "name; SELECT 1",
  "id`",
  "[id]",
  "null",
  "None",
  "true",
  "[]",
  "{}",
  "NaN",
  "Infinity",
  "-Infinity",
  "0",
  "-1",
  "1e20",
  "9223372036854775807",
  "9223372036854775808",
  "-9223372036854775809",
  "0x10",
  "1.5",
  "١٢",
  "00001",
  "10.0.0.0/33",
  "300.1.1.1",
  "::/129",
  "2001:db8::/-1",
  "10.0.0.1/24 OR 1=1",
  "fe80::1%eth0",
  "0.0.0.0/0",
  "::/0",
  "2024-13-45",
  "0000-00-00T99:99:99Z",
  "../../etc/passwd",
  "<script>alert(1)</script>",
  "{{7*7}}",
  "{{#a}}{{/a}}",
  "__proto__",
  "constructor",
  "$user",
  "x".repeat(5_000),
];

const NUMBERS = [0, -1, 1, 2 ** 31, 2 ** 53 + 2, 2 ** 63, -(2 ** 63), 1e20, -1e20, 1e308, 5e-324, 0.5, -0.0];

/** One hostile scalar: a constant above, or anything fast-check makes of strings and numbers. */
export const hostileScalar: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom<unknown>(null, true, false, ...NUMBERS, ...TEXTS) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
);

const KEYS = [
  "id",
  "name",
  "slug",
  "value",
  "label",
  "object_type",
  "object_id",
  "__proto__",
  "constructor",
  "\u0000",
  "\uD800",
  "a".repeat(300),
];

/** A hostile JSON value of any shape: scalars, small lists and objects of them, nested a few levels. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    { weight: 5, arbitrary: hostileScalar },
    { weight: 1, arbitrary: fc.array(tie("value"), { maxLength: 4 }) },
    { weight: 1, arbitrary: fc.dictionary(fc.constantFrom(...KEYS), tie("value"), { maxKeys: 3 }) },
  ),
})).value;

/**
 * An object with some of `fields` (at most `maxFields`), each holding a hostile value (wrong
 * types for every field), and perhaps an unknown key.
 */
export function hostileObject(fields: readonly string[], maxFields = fields.length): fc.Arbitrary<Record<string, unknown>> {
  const names = fields.length ? fields : ["name"];
  return fc
    .tuple(
      fc.subarray([...names], { minLength: 0, maxLength: Math.min(maxFields, names.length) }),
      fc.array(hostileValue, { minLength: names.length, maxLength: names.length }),
      fc.option(fc.constantFrom(...KEYS), { freq: 4 }),
    )
    .map(([chosen, values, extra]) => {
      const out: Record<string, unknown> = {};
      chosen.forEach((name, i) => (out[name] = values[i]));
      if (extra !== null) out[extra] = values[0] ?? null;
      return out;
    });
}

/** Bodies that are not JSON, or JSON no parser should have to take. */
export const malformedBody: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "{",
    "[",
    '{"name": ',
    "nul",
    '{"a":1,}',
    "{'a': 1}",
    "\u0000",
    '{"a": NaN}',
    "\uFEFF{}",
    '{"a":"\\ud800"}',
    '{"a":"\\u0000"}',
    "1e999999",
    "-",
    "[1,]",
    '{"a" 1}',
    '"unterminated',
    "[".repeat(20_000),
    `${"[".repeat(5_000)}${"]".repeat(5_000)}`,
    `${'{"a":'.repeat(3_000)}1${"}".repeat(3_000)}`,
    `{"name": "${"n".repeat(200_000)}"}`,
  ),
  fc.string({ unit: "binary", maxLength: 60 }),
);

/** A query-string value: hostile text, an extreme number, a field name to order by, or a lookup's garbage. */
export const hostileQueryValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...TEXTS.filter((t) => t.length < 1_000)) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "-name",
      "name,-id",
      "-",
      ",",
      "id desc",
      "name; --",
      "(select 1)",
      "rowid",
      "__proto__",
      "-_depth",
      "cf_x",
      "?",
      "&",
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 20 }) },
  { weight: 1, arbitrary: fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String) },
);

/**
 * Raw query-string pieces no URLSearchParams writes: bad percent escapes, an encoded lone
 * surrogate (invalid UTF-8) and NUL, repeated and empty names.
 */
export const rawQuerySuffix: fc.Arbitrary<string> = fc.constantFrom(
  "",
  "",
  "",
  "&name=%ED%A0%80",
  "&q=%00",
  "&name=%",
  "&name=%zz",
  "&=x",
  "&&&",
  "&limit=%FF%FE",
  "&ordering=%C0%AE",
  "&id=1&id=%00&id=",
);

/** Garbage for a sweep of every filter parameter: each value fast-check could pick, short enough for a URL. */
export const HOSTILE_QUERY_TEXTS: readonly string[] = TEXTS.filter((t) => t.length < 1_000);

/** `limit`, `offset` and `ordering` at and past their ends, and SQL where a column name goes. */
export const PAGINATION_EXTREMES: readonly [string, string][][] = [
  [
    ["limit", "-1"],
    ["offset", "-1"],
  ],
  [
    ["limit", "0"],
    ["offset", "9223372036854775807"],
  ],
  [
    ["limit", "9223372036854775808"],
    ["offset", "18446744073709551616"],
  ],
  [
    ["limit", "1e20"],
    ["offset", "1e20"],
  ],
  [
    ["limit", "NaN"],
    ["offset", "Infinity"],
  ],
  [
    ["limit", "1.5"],
    ["offset", "0x10"],
  ],
  [["ordering", "name; DROP TABLE dcim_site; --"]],
  [["ordering", "-id,(SELECT 1)"]],
  [["ordering", "id DESC, 1=1"]],
  [
    ["ordering", "-"],
    ["ordering", ","],
  ],
  [
    ["ordering", "\u0000"],
    ["ordering", "\uD800"],
  ],
];

/** Path ids a detail route is asked for, beyond a real one. */
export const HOSTILE_IDS = [
  "0",
  "-1",
  "9223372036854775808",
  "18446744073709551616",
  "1e20",
  "999999999999999",
  "%00",
  "%ED%A0%80",
  "%F0%9F%92%A9",
  "1.5",
  "0x1",
  "abc",
];
