import type { Choice, RowSql, Model, RelatedFilter } from "../../schema/shapes.ts";
import { sql, type RawBuilder } from "kysely";
import { f } from "../../schema/fields.ts";
import { defineModel } from "../../schema/model.ts";
import { comments, description } from "../../schema/common.ts";
import { cabled, pathEndpoint } from "../dcim/cabling.ts";
import { pathsRoute } from "../dcim/trace.ts";
import type { StatefulHooks } from "../../schema/hooks.ts";
import { isRef } from "../../schema/kinds/descriptor.ts";
import { qb } from "../../db/query-builder.ts";
import { refSql } from "../../engine/references.ts";
import { CONTACT_PRIORITY, contactFilters } from "../tenancy/contacts.ts";

export const CIRCUIT_STATUS: readonly Choice[] = [
  { value: "planned", label: "Planned" },
  { value: "provisioning", label: "Provisioning" },
  { value: "active", label: "Active" },
  { value: "offline", label: "Offline" },
  { value: "deprovisioning", label: "Deprovisioning" },
  { value: "decommissioned", label: "Decommissioned" },
];

export const DISTANCE_UNIT: readonly Choice[] = [
  { value: "km", label: "Kilometers" },
  { value: "m", label: "Meters" },
  { value: "mi", label: "Miles" },
  { value: "ft", label: "Feet" },
];

export const TERM_SIDE: readonly Choice[] = [
  { value: "A", label: "A" },
  { value: "Z", label: "Z" },
];

/** A circuit's priority in a group: the same four as a contact's. */
const PRIORITY = CONTACT_PRIORITY;

const color = f.string({
  maxLength: 6,
  blank: true,
  pattern: { regex: /^[0-9a-f]{6}$/, message: "Enter a valid hexadecimal RGB color code." },
});

/** What circuit types and virtual circuit types share (NetBox's BaseCircuitType). */
export const circuitTypeFields = () => ({
  name: f.string({ maxLength: 100, unique: true }),
  slug: f.slug({ unique: true }),
  color,
  description,
});
const speed = (label: string, helpText: string) => f.integer({ nullable: true, min: 0, max: 2_147_483_647, label, helpText });

type Sql = RawBuilder<unknown>;

/** The site a termination row under `ct` lands in: its own object, or the site of its location. */
const terminationSite = (ct: string) => sql`CASE ${sql.ref(`${ct}.termination_type`)}
  WHEN 'dcim.site' THEN ${sql.ref(`${ct}.termination_id`)}
  WHEN 'dcim.location' THEN (SELECT l.site_id FROM dcim_location l WHERE l.id = ${sql.ref(`${ct}.termination_id`)}) END`;

/** The region (or site group) a termination row lands in: its own object, or its site's. */
const terminationSiteColumn = (ct: string, column: "region_id" | "group_id", own: string) => sql`CASE ${sql.ref(`${ct}.termination_type`)}
  WHEN ${own} THEN ${sql.ref(`${ct}.termination_id`)}
  WHEN 'dcim.site' THEN (SELECT s.${sql.ref(column)} FROM dcim_site s WHERE s.id = ${sql.ref(`${ct}.termination_id`)})
  WHEN 'dcim.location' THEN (SELECT s.${sql.ref(column)} FROM dcim_location l JOIN dcim_site s ON s.id = l.site_id
    WHERE l.id = ${sql.ref(`${ct}.termination_id`)}) END`;

/** The termination's object when it is of `type`. */
const terminationOf = (ct: string, type: string) =>
  sql`CASE WHEN ${sql.ref(`${ct}.termination_type`)} = ${type} THEN ${sql.ref(`${ct}.termination_id`)} END`;

/**
 * Where circuits terminate, as filters of a model: `terminations` is the condition on the
 * termination rows (`ct`) of the row under `t` (a circuit's own, a provider's circuits'), and each
 * filter matches the sites, regions, site groups, locations or provider networks they land in, as
 * NetBox's cached `_site`, `_region` ... of a termination do.
 */
function placeFilters(terminations: (t: string) => Sql): Record<string, RelatedFilter> {
  const via = (expr: (ct: string) => Sql) => (t: string) =>
    sql`SELECT ${expr("ct")} AS id FROM circuits_circuittermination ct WHERE ${terminations(t)}`;
  /** `name_id` and `name`: terminations landing in `target` rows, `expr` naming them (and their descendants with `tree`). */
  type Place = { readonly target: string; readonly expr: (ct: string) => Sql; readonly tree?: boolean };
  const pair = (name: string, { target, expr, tree = false }: Place): Record<string, RelatedFilter> => ({
    [`${name}_id`]: { target, tree, byId: true, related: via(expr) },
    [name]: { target, tree, related: via(expr) },
  });
  return {
    ...pair("site", { target: "dcim.site", expr: terminationSite }),
    ...pair("region", { target: "dcim.region", expr: (ct) => terminationSiteColumn(ct, "region_id", "dcim.region"), tree: true }),
    ...pair("site_group", { target: "dcim.sitegroup", expr: (ct) => terminationSiteColumn(ct, "group_id", "dcim.sitegroup"), tree: true }),
    ...pair("location", { target: "dcim.location", expr: (ct) => terminationOf(ct, "dcim.location"), tree: true }),
    provider_network_id: {
      target: "circuits.providernetwork",
      byId: true,
      related: via((ct) => terminationOf(ct, "circuits.providernetwork")),
    },
  };
}

const pick = <T>(all: Record<string, T>, names: readonly string[]) => Object.fromEntries(names.map((n) => [n, all[n]]));

/** What a circuit shows of each of its terminations (`termination_a`, `termination_z`). */
const CIRCUIT_TERMINATION_FIELDS = ["termination", "port_speed", "upstream_speed", "xconnect_id", "description"];

export const provider = defineModel({
  app: "circuits",
  name: "provider",
  fields: {
    name: f.string({ maxLength: 100, unique: true, helpText: "Full name of the provider" }),
    slug: f.slug({ unique: true }),
    // Accounts belong to a provider by their own fk: listed here, written on the account.
    accounts: f.reverseList("circuits.provideraccount", "circuits_provideraccount", "provider_id", { nestedDisplayUrl: true }),
    description,
    comments,
    asns: f.m2m(
      "ipam.asn",
      { table: "circuits_provider_asns", source: "provider_id", target: "asn_id" },
      { filterName: "asn", label: "ASNs" },
    ),
    circuit_count: f.count("circuits.circuit", "provider"),
  },
  brief: ["name", "slug", "description", "circuit_count"],
  search: ["name", "slug", "description", "comments"],
  filters: {
    ...contactFilters("circuits.provider"),
    // Providers with a circuit terminating in the site (or one of its locations), region or site group.
    ...pick(
      placeFilters((t) => sql`ct.circuit_id IN (SELECT id FROM circuits_circuit WHERE provider_id = ${sql.ref(`${t}.id`)})`),
      ["site_id", "site", "region_id", "region", "site_group_id", "site_group"],
    ),
  },
});

/** `str()` of a provider account: its account id, with its name when it has one. */
const accountDisplay: RowSql = (t) =>
  sql`CASE WHEN ${sql.ref(`${t}.name`)} <> '' THEN ${sql.ref(`${t}.account`)} || ' (' || ${sql.ref(`${t}.name`)} || ')' ELSE ${sql.ref(`${t}.account`)} END`;

export const providerAccount = defineModel({
  app: "circuits",
  name: "provideraccount",
  verboseName: "provider account",
  fields: {
    provider: f.fk("circuits.provider", { onDelete: "protect" }),
    name: f.string({ maxLength: 100, blank: true }),
    account: f.string({ maxLength: 100, label: "Account ID" }),
    description,
    comments,
  },
  uniqueTogether: [
    { fields: ["provider", "account"], message: "Provider account with this Provider and Account ID already exists." },
    { fields: ["provider", "name"], unlessBlank: "name", message: "Provider account with this Provider and Name already exists." },
  ],
  brief: ["name", "account", "description"],
  display: accountDisplay,
  naturalKey: "account",
  search: ["account", "name", "description", "comments"],
  ordering: ["provider", "account"],
});

export const providerNetwork = defineModel({
  app: "circuits",
  name: "providernetwork",
  verboseName: "provider network",
  fields: {
    provider: f.fk("circuits.provider", { onDelete: "protect" }),
    name: f.string({ maxLength: 100 }),
    service_id: f.string({ maxLength: 100, blank: true, label: "Service ID" }),
    description,
    comments,
  },
  uniqueTogether: [{ fields: ["provider", "name"], message: "Provider network with this Provider and Name already exists." }],
  brief: ["name", "description"],
  search: ["name", "service_id", "description", "comments"],
  ordering: ["provider", "name"],
});

export const circuitType = defineModel({
  app: "circuits",
  name: "circuittype",
  verboseName: "circuit type",
  fields: { ...circuitTypeFields(), circuit_count: f.count("circuits.circuit", "type") },
  brief: ["name", "slug", "description", "circuit_count"],
});

export const circuit = defineModel({
  app: "circuits",
  name: "circuit",
  fields: {
    cid: f.string({ maxLength: 100, label: "Circuit ID", helpText: "Unique circuit ID" }),
    provider: f.fk("circuits.provider", { onDelete: "protect" }),
    provider_account: f.fk("circuits.provideraccount", { nullable: true, onDelete: "protect" }),
    type: f.fk("circuits.circuittype", { onDelete: "protect" }),
    status: f.choice(CIRCUIT_STATUS, { default: "active" }),
    tenant: f.fk("tenancy.tenant", { nullable: true, onDelete: "protect" }),
    install_date: f.date({ nullable: true, label: "Installed" }),
    termination_date: f.date({ nullable: true, label: "Terminates" }),
    commit_rate: f.integer({ nullable: true, min: 0, max: 2_147_483_647, label: "Commit rate (Kbps)", helpText: "Committed rate" }),
    description,
    // NetBox stores a decimal of 6 digits and 2 places: strictly within a million either way.
    distance: f.float({ nullable: true, min: -999_999.99, max: 999_999.99 }),
    distance_unit: f.choice(DISTANCE_UNIT, { nullable: true }),
    termination_a: f.reverse(
      "circuits.circuittermination",
      { field: "circuit", where: { term_side: "A" }, fields: CIRCUIT_TERMINATION_FIELDS },
      { nestedDisplayUrl: true },
    ),
    termination_z: f.reverse(
      "circuits.circuittermination",
      { field: "circuit", where: { term_side: "Z" }, fields: CIRCUIT_TERMINATION_FIELDS },
      { nestedDisplayUrl: true },
    ),
    comments,
    // Written as assignments of their own (`/api/circuits/circuit-group-assignments/`).
    assignments: f.reverseList("circuits.circuitgroupassignment", "circuits_circuitgroupassignment", "member_id", {
      typeColumn: "member_type",
    }),
  },
  uniqueTogether: [
    { fields: ["provider", "cid"], message: "Circuit with this Provider and Circuit ID already exists." },
    {
      fields: ["provider_account", "cid"],
      nullsDistinct: ["provider_account"],
      message: "Circuit with this Provider account and Circuit ID already exists.",
    },
  ],
  brief: ["provider", "cid", "description"],
  display: "cid",
  naturalKey: "cid",
  search: ["cid", "description", "comments"],
  ordering: ["provider", "provider_account", "cid"],
  filters: {
    ...contactFilters("circuits.circuit"),
    ...pick(
      placeFilters((t) => sql`ct.circuit_id = ${sql.ref(`${t}.id`)}`),
      ["site_id", "site", "region_id", "region", "site_group_id", "site_group", "provider_network_id"],
    ),
    termination_a_id: {
      target: "circuits.circuittermination",
      byId: true,
      related: (t) => sql`SELECT id FROM circuits_circuittermination WHERE circuit_id = ${sql.ref(`${t}.id`)} AND term_side = 'A'`,
    },
    termination_z_id: {
      target: "circuits.circuittermination",
      byId: true,
      related: (t) => sql`SELECT id FROM circuits_circuittermination WHERE circuit_id = ${sql.ref(`${t}.id`)} AND term_side = 'Z'`,
    },
  },
  hooks: accountOfProvider(),
});

const terminationFields = {
  circuit: f.fk("circuits.circuit", { onDelete: "cascade" }),
  term_side: f.choice(TERM_SIDE, { bare: true, label: "Termination side" }),
  // NetBox 4.2: a termination attaches to a region, site group, site, location or provider network.
  // Deleting the object deletes its terminations, as NetBox's cached relations cascade.
  termination: f.generic(["dcim.region", "dcim.sitegroup", "dcim.site", "dcim.location", "circuits.providernetwork"], {
    nullable: true,
    onDelete: "cascade",
  }),
  port_speed: speed("Port speed (Kbps)", "Physical circuit speed"),
  upstream_speed: speed("Upstream speed (Kbps)", "Upstream speed, if different from port speed"),
  xconnect_id: f.string({ maxLength: 50, blank: true, label: "Cross-connect ID", helpText: "ID of the local cross-connect" }),
  pp_info: f.string({ maxLength: 100, blank: true, label: "Patch panel/port(s)", helpText: "Patch panel ID and port number(s)" }),
  description,
  ...cabled(),
  ...pathEndpoint(),
};

export const circuitTermination = defineModel({
  app: "circuits",
  name: "circuittermination",
  verboseName: "circuit termination",
  fields: terminationFields,
  uniqueTogether: [
    { fields: ["circuit", "term_side"], message: "Circuit termination with this Circuit and Termination side already exists." },
  ],
  brief: ["circuit", "term_side", "description", "cable", "_occupied"],
  routes: [pathsRoute],
  display: (t) =>
    sql`(SELECT c.cid FROM circuits_circuit c WHERE c.id = ${sql.ref(`${t}.circuit_id`)}) || ': Termination ' || ${sql.ref(`${t}.term_side`)}`,
  search: ["xconnect_id", "pp_info", "description"],
  ordering: ["circuit", "term_side"],
  filters: {
    provider: "circuit__provider",
    provider_id: "circuit__provider__id",
    ...placeFilters((t) => sql`ct.id = ${sql.ref(`${t}.id`)}`),
  },
  hooks: {
    // A termination must attach to something (NetBox's clean()); the column stays nullable as NetBox's.
    prepareWrite: (_ctx, items) => {
      for (const item of items) {
        const given = item.values.termination;
        const missing = given === null || (given === undefined && (!item.current || item.current.termination_type == null));
        if (missing) item.errors.non_field_errors = ["A circuit termination must attach to a terminating object."];
      }
    },
  },
});

/** Each account's provider, by account id, as the write's probe read them. */
type AccountProviders = Map<number, number>;

/**
 * A circuit's account must be one of its provider's (NetBox's clean()). One probe reads the
 * provider of every account named and of every account of a provider named; a partial update
 * keeps the stored side it does not change.
 */
function accountOfProvider(): StatefulHooks<AccountProviders> {
  return {
    initial: () => new Map(),
    writeProbes: (ctx, items, seen) => {
      const refs = (name: string, target: Model) =>
        items
          .map((i) => i.values[name])
          .filter((v) => v !== undefined && v !== null)
          .map((v) => refSql(ctx, target, isRef(v) ? v : (v as number)));
      const [accounts, named] = [refs("provider_account", providerAccount), refs("provider", provider)];
      if (!accounts.length && !named.length) return [];
      const none = sql`(NULL)`;
      return [
        {
          statement: sql`SELECT id, provider_id FROM circuits_provideraccount
          WHERE id IN (${accounts.length ? sql.join(accounts) : none}) OR provider_id IN (${named.length ? sql.join(named) : none})`.compile(
            qb,
          ),
          settle: (r) => r.rows.forEach((row) => seen.set(Number(row.id), Number(row.provider_id))),
        },
      ];
    },
    prepareWrite: (_ctx, items, seen) => {
      for (const { values, current, errors } of items) {
        const account = values.provider_account !== undefined ? values.provider_account : (current?.provider_account_id ?? null);
        const owner = values.provider !== undefined ? values.provider : current?.provider_id;
        if (account === null || account === undefined || (values.provider_account === undefined && values.provider === undefined)) continue;
        if (seen.get(Number(account)) !== Number(owner))
          errors.provider_account = ["The assigned account must belong to the assigned provider."];
      }
    },
  };
}

export const circuitGroup = defineModel({
  app: "circuits",
  name: "circuitgroup",
  verboseName: "circuit group",
  fields: {
    name: f.string({ maxLength: 100, unique: true }),
    slug: f.slug({ unique: true }),
    description,
    tenant: f.fk("tenancy.tenant", { nullable: true, onDelete: "protect" }),
    circuit_count: f.count("circuits.circuitgroupassignment", "group"),
  },
  brief: ["name"],
  filters: {},
});

/** The circuits a group assignment may name (virtual circuits too, once they are served). */
const groupMembers = (models: readonly Model[]) =>
  models.filter((m) => m.objectType === "circuits.circuit" || m.objectType === "circuits.virtualcircuit");
const memberCircuit = (t: string) =>
  sql`SELECT ${sql.ref(`${t}.member_id`)} AS id WHERE ${sql.ref(`${t}.member_type`)} = 'circuits.circuit'`;

const memberVirtualCircuit = (t: string) =>
  sql`SELECT ${sql.ref(`${t}.member_id`)} AS id WHERE ${sql.ref(`${t}.member_type`)} = 'circuits.virtualcircuit'`;

const memberProvider = (t: string) => sql`SELECT c.provider_id AS id FROM circuits_circuit c
  WHERE c.id = ${sql.ref(`${t}.member_id`)} AND ${sql.ref(`${t}.member_type`)} = 'circuits.circuit'`;

export const circuitGroupAssignment = defineModel({
  app: "circuits",
  name: "circuitgroupassignment",
  verboseName: "circuit group assignment",
  fields: {
    group: f.fk("circuits.circuitgroup", { onDelete: "cascade" }),
    member: f.generic(groupMembers),
    priority: f.choice(PRIORITY, { nullable: true }),
  },
  uniqueTogether: [
    { fields: ["member", "group"], message: "Circuit group assignment with this Member type, Member ID and Group already exists." },
  ],
  brief: ["group", "priority"],
  display: (t) => sql`(SELECT g.name FROM circuits_circuitgroup g WHERE g.id = ${sql.ref(`${t}.group_id`)})
    || CASE ${sql.ref(`${t}.priority`)} ${sql.join(
      PRIORITY.map((c) => sql`WHEN ${c.value} THEN ' (' || ${c.label} || ')'`),
      sql` `,
    )} ELSE '' END`,
  search: [],
  ordering: ["group", "priority"],
  filters: {
    circuit_id: { target: "circuits.circuit", byId: true, related: memberCircuit },
    circuit: { target: "circuits.circuit", related: memberCircuit },
    virtual_circuit_id: { target: "circuits.virtualcircuit", byId: true, related: memberVirtualCircuit },
    virtual_circuit: { target: "circuits.virtualcircuit", related: memberVirtualCircuit },
    provider_id: { target: "circuits.provider", byId: true, related: memberProvider },
    provider: { target: "circuits.provider", related: memberProvider },
  },
});

export const circuitsModels = [
  provider,
  providerAccount,
  providerNetwork,
  circuitType,
  circuit,
  circuitTermination,
  circuitGroup,
  circuitGroupAssignment,
];
