/**
 * The one table of deliberate differences between our GraphQL API and NetBox 4.2.9's (issue 19),
 * each with its reason. `what` is either a schema name, as test/support/graphql-schema-compare.ts
 * writes them (`Type`, `Type.field`, `Type.field(argument)`, `Input.field`, `Union|Member`; `*`
 * stands for any characters), or `request N`, a recorded request of
 * `../shared/reference/netbox-4.2-graphql-recordings/`.
 *
 * test/graphql-schema.test.ts counts the NetBox names a row names as found (apart, as deliberate)
 * and lists our additions a row explains; test/graphql-replay.test.ts compares a `request N` row's
 * request with the row's `answer` (NetBox's labels and placeholders, as in the recordings) instead
 * of NetBox's, or, without one, does not compare it and counts it as deliberate.
 */

export interface GraphqlDifference {
  /** A schema name or pattern, or `request N`. */
  what: string;
  /** Why we differ: the word, SPEC.md's section, or NetBox's bug we do not copy. */
  why: string;
  /** For `request N`: the answer we give instead of NetBox's. */
  answer?: { status: number; body: unknown };
}

/** `request N`'s number, or null for a schema row. */
export const requestOf = (d: GraphqlDifference): number | null => {
  const m = /^request (\d+)$/.exec(d.what);
  return m ? Number(m[1]) : null;
};

export const GRAPHQL_DIFFERENCES: readonly GraphqlDifference[] = [
  {
    what: "Query.*_list(pagination)",
    why: "issue 19 asks for NetBox 4.3's `pagination: {offset, limit}` on lists, which NetBox 4.2 lacks (an addition)",
  },
  {
    what: "OffsetPaginationInput",
    why: "the input type of the `pagination` argument (NetBox 4.3's name; an addition)",
  },
  {
    what: "request 120",
    why: "issue 19: lists take `pagination` (NetBox 4.3); NetBox 4.2 refuses the argument. The first two devices by name",
    answer: {
      status: 200,
      body: { data: { device_list: [{ name: "<RUN>-edge1" }, { name: "<RUN>-leaf1" }] } },
    },
  },
];
