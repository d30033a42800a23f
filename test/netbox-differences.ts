import { EVERY_MODEL } from "./support/netbox-replay.ts";

/**
 * The one table of deliberate differences from NetBox 4.2: where SPEC.md (or issue 18) decides
 * otherwise than NetBox, each with its reason. `test/netbox-coverage.test.ts` counts the NetBox
 * paths, fields and filters named here as covered; `test/netbox-replay.test.ts` applies the rest
 * to the recorded scenario before it counts: a request whose status SPEC.md decides (its body is
 * then not compared), a request sent after ours to keep the state NetBox's, a rewrite of the
 * objects of one model (ours: drop what we add on purpose; NetBox's: into SPEC.md's form), and
 * the keys a create's answer may complete. Only the deliberate part is rewritten: the rest of an
 * object is still compared.
 *
 * Issue 18 asks for every NetBox path, field and filter; the few SPEC.md rules out are rows with
 * `coverage` (token keys' substring lookups), counted as covered.
 */

/** Where an object sits in an answer. */
export interface Where {
  /** The request number. */
  n: number;
  method: string;
  /** The request asked for the brief form (`?brief=1`). */
  brief: boolean;
  /** The object sits inside another (a related object), not at the top or as a list's item. */
  nested: boolean;
}

export interface DeliberateDifference {
  /** What differs, in a few words. */
  what: string;
  /** Why we keep it: SPEC.md's section or issue 18. */
  reason: string;
  /** NetBox paths, `<list path> <field>` and `<list path> <filter>` counted as covered. */
  coverage?: { paths?: string[]; fields?: string[]; filters?: string[] };
  /** Requests whose status SPEC.md decides (number -> our status); their bodies are not compared. */
  status?: Record<number, number>;
  /** Requests whose body is not compared (the status still is). */
  body?: number[];
  /** Sent after request N (labels as in the recordings), not counted: keeps our state NetBox's. */
  align?: Record<number, { method: string; path: string }>;
  /** The list path (`/api/dcim/devices/`) whose objects `ours` and `netbox` rewrite, recognised by their `url`. */
  model?: string;
  /** Rewrites one of our objects of `model` into NetBox's form, in place (what we add on purpose). */
  ours?: (object: Record<string, any>, where: Where) => void;
  /** Rewrites one of NetBox's objects of `model` into the form SPEC.md gives, in place. */
  netbox?: (object: Record<string, any>, where: Where) => void;
  /**
   * Keys (any segment of a key path) whose value NetBox's answer to a create (a POST answered 201)
   * leaves out or gives stale: our extra keys and differing values there are not counted.
   */
  createAnswer?: RegExp;
}

const VLAN_STATUS: Record<number, string> = { 1: "active", 2: "reserved", 3: "deprecated" };

export const DELIBERATE: readonly DeliberateDifference[] = [
  {
    what: "token keys filter by equality only (`key`, `key__n`, `key__ie`, `key__nie`, `key__empty`): substring lookups are refused",
    reason:
      "SPEC.md 5.9: a key may be unretrievable, so it is kept as a keyed digest (README, keys at rest); a digest answers equality, never a substring",
    coverage: {
      filters: ["key__ic", "key__nic", "key__isw", "key__nisw", "key__iew", "key__niew"].map((f) => `/api/users/tokens/ ${f}`),
    },
  },
  {
    what: "devices carry `display_name`, in full and nested forms",
    reason: "SPEC.md 2.2 and 2.3: a device's nested representation includes `display_name`",
    model: "/api/dcim/devices/",
    ours: (o) => delete o.display_name,
  },
  {
    what: "VLANs carry `display_name`",
    reason: "SPEC.md 2.3 lists `display_name` among a VLAN's fields",
    model: "/api/ipam/vlans/",
    ours: (o) => delete o.display_name,
  },
  {
    what: "VLAN `status.value` is an integer (1 Active, 2 Reserved, 3 Deprecated)",
    reason: "SPEC.md 2.3 and 3: the VLAN status value is shown as an integer",
    model: "/api/ipam/vlans/",
    ours: (o) => {
      if (o.status && typeof o.status === "object" && typeof o.status.value === "number") o.status.value = VLAN_STATUS[o.status.value];
      else if (typeof o.status === "number") o.status = VLAN_STATUS[o.status];
    },
  },
  {
    what: "prefixes carry `site` (nested or null) beside NetBox 4.2's scope",
    reason: "SPEC.md 2.3 lists `site` among a prefix's fields",
    model: "/api/ipam/prefixes/",
    ours: (o) => delete o.site,
  },
  {
    what: "a site's `status` carries `id` beside `value` and `label`",
    reason: "SPEC.md 2.3: a site's status is {value, label, id}",
    model: "/api/dcim/sites/",
    ours: (o) => {
      if (o.status && typeof o.status === "object") delete o.status.id;
    },
  },
  ...["/api/ipam/prefixes/", "/api/ipam/ip-addresses/", "/api/ipam/aggregates/", "/api/ipam/ip-ranges/"].map(
    (model): DeliberateDifference => ({
      what: `\`family\` is a plain integer in brief forms: \`?brief=1\` and nested objects (${model})`,
      reason:
        "SPEC.md 2.2: in the brief representation related choice fields are reduced to plain values (a prefix's family as integer); NetBox nests its brief forms, and so do we",
      model,
      netbox: (o, where) => {
        if ((where.brief || where.nested) && o.family && typeof o.family === "object") o.family = o.family.value;
      },
    }),
  ),
  {
    what: "a token's `display` is the masked key",
    reason: "SPEC.md 2.3: a token's display is a masked form of the key (NetBox's recorder shows its display as <key>)",
    model: "/api/users/tokens/",
    ours: (o) => {
      if (typeof o.display === "string") o.display = "<key>";
    },
  },
  {
    what: "`/api/extras/object-changes/` is served (NetBox 4.1 moved it to /api/core/)",
    reason: "SPEC.md 2.1 and 2.3 name /api/extras/object-changes/ for change records",
    status: { 476: 200 },
  },
  {
    what: "a DELETE of one object with a body is refused (400); NetBox ignores the body",
    reason: "SPEC.md 7: a DELETE with a request body on a detail endpoint is not supported",
    status: { 549: 400 },
    align: { 549: { method: "DELETE", path: "/api/dcim/sites/@72.0/" } },
  },
  {
    what: "a path without its trailing slash is redirected with 302 (NetBox: 301)",
    reason: "SPEC.md 4 and 7: a request without the trailing slash receives a 302 redirect",
    status: { 552: 302 },
  },
  {
    what: "an unknown `cf_` filter is refused (400); NetBox ignores it and lists everything",
    reason: "issue 18: no filter is silently ignored",
    status: { 91: 400 },
  },
  {
    what: "`device_role` is accepted (and given back) as the pre-4.0 name of a device's `role`",
    reason: "issue 18: accepting `device_role` from older clients is kept; they read it too (src/apps/dcim/devices.ts)",
    status: { 166: 201 },
    align: { 166: { method: "DELETE", path: "/api/dcim/devices/@166/" } },
    model: "/api/dcim/devices/",
    ours: (o) => delete o.device_role,
  },
  {
    what: "webhooks accept and give back NetBox 3.x's fields (`content_types`, `object_types`, `type_create`, `type_update`, `type_delete`, `conditions`, `enabled`)",
    reason: "issue 18: accepting the 3.x webhook fields from older clients is kept (SPEC.md 6: conditions moved to event rules)",
    model: "/api/extras/webhooks/",
    ours: (o) => {
      for (const k of ["content_types", "object_types", "type_create", "type_update", "type_delete", "conditions", "enabled"]) delete o[k];
    },
  },
  {
    what: "the answer to a create is complete: counts, `_depth`, `children`, `cable`, `_occupied`, `vid_ranges` as a GET gives them",
    reason: "issue 18: do not copy NetBox's stale create responses (counts, `_depth`, `cable` missing from a POST's answer)",
    createAnswer: /^(\w+_count|tagged_items|utilization|allocated_(disk|memory|vcpus)|_depth|children|cable|_occupied|vid_ranges)$/,
  },
  {
    what: "input NetBox answers with a 500 is a 400 here (a /33 prefix, 300.1.1.1/24, a bad allowed_ips entry, duplicate slugs in one bulk create)",
    reason: "issue 18: do not copy NetBox's 500s",
    status: { 249: 400, 372: 400, 509: 400, 533: 400 },
  },
  {
    what: "`parent` is no prefix filter (NetBox 4.2 has none either): STRICT_FILTERING refuses it (400); NetBox ignores it and lists its whole database",
    reason: "issue 18: no filter is silently ignored (STRICT_FILTERING, on by default)",
    status: { 260: 400 },
  },
  {
    what: "an unknown API path answers JSON `{detail}`, not NetBox's HTML page",
    reason: "every answer below /api/ is JSON (SPEC.md 4: responses are JSON); the status is still compared",
    body: [553],
  },
  {
    what: "nested objects carry no counts NetBox computes by query (`site_count` of a site's region, `rack_count` of a rack's location, ...)",
    reason:
      "NetBox's nested objects are not annotated, so it answers 0 there whatever the count (a rack's own location has `rack_count` 0); a true count would cost a query per nested object, a false one would mislead. Counts NetBox stores (a virtual chassis' `member_count`) are nested here too",
    model: EVERY_MODEL,
    netbox: (o, where) => {
      if (!where.nested) return;
      for (const key of Object.keys(o)) if (key.endsWith("_count") && key !== "member_count" && o[key] === 0) delete o[key];
    },
  },
  ...[
    "/api/dcim/regions/",
    "/api/dcim/site-groups/",
    "/api/dcim/locations/",
    "/api/tenancy/tenant-groups/",
    "/api/tenancy/contact-groups/",
    "/api/virtualization/cluster-groups/",
    "/api/extras/event-rules/",
  ].map(
    (model): DeliberateDifference => ({
      what: `\`comments\` on ${model}`,
      reason: "NetBox 4.3 gives these models `comments`; this service had them before, and dropping them would lose what users wrote",
      model,
      ours: (o) => delete o.comments,
    }),
  ),
  {
    what: "circuits carry `assignments` (their circuit group assignments)",
    reason:
      "NetBox 4.2's own OpenAPI document describes the field on circuits, though its answers leave it out; we answer what the document describes",
    model: "/api/circuits/circuits/",
    ours: (o) => delete o.assignments,
  },
  {
    what: "circuit terminations carry `connected_endpoints` (the far end of their cable path)",
    reason:
      "a circuit termination is a cable path endpoint here as an interface is, so scripts find what a circuit reaches without a trace",
    model: "/api/circuits/circuit-terminations/",
    ours: (o) => {
      for (const k of ["connected_endpoints", "connected_endpoints_type", "connected_endpoints_reachable"]) delete o[k];
    },
  },
  {
    what: "users carry `is_superuser`",
    reason:
      "a superuser bypasses object permissions here (README: permissions), so who has that power is shown and settable through the API",
    model: "/api/users/users/",
    ours: (o) => delete o.is_superuser,
  },
  {
    what: "`/api/status/` names this service's apps and versions, not Django's",
    reason: "the service runs no Django, Python or RQ; its status tells what it does run (the status code is still compared)",
    body: [3],
  },
  {
    what: "a bulk update's errors are a list aligned with its items; NetBox gives the first failing item's alone",
    reason: "SPEC.md 6 leaves the shape open; the aligned list tells a client which item failed (a bulk create answers so in NetBox too)",
    body: [527],
  },
  {
    what: "a bulk update or delete naming an id that does not exist fails whole (400); NetBox skips the id and writes the rest",
    reason: "SPEC.md 6: a bulk update or delete that fails for any object is aborted whole, with nothing written",
    status: { 529: 400, 535: 400 },
    align: { 535: { method: "DELETE", path: "/api/tenancy/tenants/@532.2/" } },
  },
  {
    what: "a token created without `user` is the requester's own; NetBox refuses it",
    reason: "SPEC.md 5.3: every user may create and manage their own tokens; naming oneself is not required",
    status: { 506: 201 },
  },
  {
    what: '`cable_end` is null on a port whose cable was deleted; NetBox leaves "" there',
    reason: "issue 18: `cable_end` null on an uncabled port, whether it never had a cable or lost it",
    model: "/api/dcim/interfaces/",
    netbox: (o) => {
      if (o.cable === null && o.cable_end === "") o.cable_end = null;
    },
  },
];
