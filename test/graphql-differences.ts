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
 * of NetBox's, or, without one, does not compare it and counts it as deliberate. A schema row may
 * hold to one category of the comparison (`category`) or to a kind of type (`types`, given NetBox's
 * and our types as printed), for a difference of kind rather than of name.
 */

import type { NamedDifference } from "./support/graphql-schema-compare.ts";

export interface GraphqlDifference extends NamedDifference {
  /** A schema name or pattern, or `request N`. */
  what: string;
  /** Why we differ: the word, the README's GraphQL section, or NetBox's bug we do not copy. */
  why: string;
  /** For `request N`: the answer we give instead of NetBox's. */
  answer?: { status: number; body: unknown };
}

/** `request N`'s number, or null for a schema row. */
export const requestOf = (d: GraphqlDifference): number | null => {
  const m = /^request (\d+)$/.exec(d.what);
  return m ? Number(m[1]) : null;
};

/** Why requests 078 and 080 differ: NetBox types REST's filter as a lookup, then fails on it. */
const FIELD_ERROR =
  "NetBox 4.2's IPAddressFilter types this REST filter as a lookup (`{exact: ...}`), then fails on it with Django's FieldError " +
  "(the text lists its model's columns): a bug we do not copy. Ours is REST's filter of that name, taking its values as a list " +
  '(`parent: ["10.0.0.0/25"]`), so the lookup form is refused when the query is validated';

const MPTT = "NetBox's trees are MPTT nested sets, whose bookkeeping columns it shows; ours are stored as parent links (README, GraphQL)";

export const GRAPHQL_DIFFERENCES: readonly GraphqlDifference[] = [
  {
    what: "*",
    category: "nullability",
    types: (netbox, ours) => /Type!$/.test(netbox) && netbox === `${ours}!`,
    why: "relations are nullable: an object the requester may not view is null rather than an error (README, GraphQL)",
  },
  {
    what: "*",
    types: (netbox, ours) => netbox.replace(/\bUnion\b/, "Int") === ours,
    why: "counters and big integers (counts, ASNs) are `Int`; NetBox 4.2 gives them a scalar named `Union` (README, GraphQL)",
  },
  { what: "Union", category: "scalars", why: "no field is typed with NetBox's `Union` scalar: counters are `Int` (above)" },
  { what: "*.lft", why: MPTT },
  { what: "*.rght", why: MPTT },
  { what: "*.tree_id", why: MPTT },
  { what: "*.level", why: MPTT },
  {
    what: "*._*",
    category: "object fields",
    why: "NetBox's private columns (`_name`, `_abs_length`, `_children`, ...: its sort keys and caches) are not shown (README, GraphQL)",
  },
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
  {
    what: "ManufacturerType.device_types*",
    why: "NetBox 4.2 types a manufacturer's device types as devices ([DeviceType!], DeviceFilter), so no query can select a device type's own fields (request 100); ours are device types ([DeviceTypeType!], DeviceTypeFilter)",
  },
  {
    what: "ManufacturerType.module_types*",
    why: "NetBox 4.2 types a manufacturer's module types as modules ([ModuleType!], ModuleFilter); ours are module types",
  },
  {
    what: "IKEPolicyType.ipsec_profiles*",
    why: "NetBox 4.2 types an IKE policy's IPSec profiles as IPSec proposals ([IPSecProposalType!], IPSecProposalFilter); ours are IPSec profiles",
  },
  {
    what: "ModuleTypeType.powerporttemplates*",
    why: "NetBox 4.2 types a module type's power port templates as power outlet templates; ours are power port templates",
  },
  {
    what: "ModuleTypeType.instances*",
    why: "NetBox 4.2 types a module type's instances as interfaces ([InterfaceType!], InterfaceFilter); ours are modules",
  },
  {
    what: "ModuleTypeType.consoleporttemplates*",
    why: "NetBox 4.2 types a module type's console port templates as modules ([ModuleType!], ModuleFilter); ours are console port templates",
  },
  {
    what: "InventoryItemTemplateComponentType|*",
    why: "NetBox 4.2's union of an inventory item template's component lists device components (ConsolePortType, ...); a template's component is a component template (ConsolePortTemplateType, ...), which ours lists",
  },
  {
    what: "request 100",
    why: "ManufacturerType.device_types are device types here (see above), so `model` is a field of theirs; NetBox 4.2 refuses the query",
    answer: {
      status: 200,
      body: {
        data: {
          manufacturer: {
            name: "<RUN> Arista",
            device_types: [{ model: "<RUN> 7050SX" }, { model: "<RUN> 7280R" }],
            platforms: [{ name: "<RUN> EOS" }],
          },
        },
      },
    },
  },
  {
    what: "request 066",
    why:
      "NetBox 4.2 applies its list-valued filters (those its REST filter set backs) inside `OR` to the whole list, so " +
      "`{platform, OR: {role, site}}` intersects everything and answers none; ours is what `OR` means in strawberry-django's " +
      "filters, on which NetBox's are built: the EOS devices, or the Spines at fra1",
    answer: {
      status: 200,
      body: { data: { device_list: [{ name: "<RUN>-edge1" }, { name: "<RUN>-leaf1" }, { name: "<RUN>-leaf2" }, { name: "<RUN>-leaf3" }] } },
    },
  },
  {
    what: "request 078",
    why: FIELD_ERROR,
    answer: {
      status: 200,
      body: {
        data: null,
        errors: [{ message: 'String cannot represent a non string value: {exact: "<NET4>.0/25"}', locations: [{ line: 1, column: 37 }] }],
      },
    },
  },
  {
    what: "request 080",
    why: FIELD_ERROR,
    answer: {
      status: 200,
      body: {
        data: null,
        errors: [{ message: 'String cannot represent a non string value: {exact: "<RUN>-leaf1"}', locations: [{ line: 1, column: 37 }] }],
      },
    },
  },
  {
    what: "request 116",
    why:
      "a type's fields are listed in the order our registry declares them, and DeviceType has fields NetBox's lacks (`display_name`, " +
      "`parent_device`, `object_changes`, `bookmarks`, `notifications`, `subscriptions`: relations of ours) and lacks NetBox's " +
      "`cabletermination_set` (the schema comparison counts each field)",
  },
  {
    what: "request 132",
    why: 'a refused token is answered as every refusal of this service is, JSON `{"detail": "Invalid token"}` with 403; NetBox\'s GraphQL view answers the bare text',
  },
];
