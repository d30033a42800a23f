import type { Model } from "../../schema/shapes.ts";
import type { Actor } from "../../schema/actor.ts";
import { sql, type RawBuilder } from "kysely";
import type { Row, Statement } from "../../db/database.ts";
import { qb } from "../../db/query-builder.ts";
import { isRef } from "../../schema/kinds/descriptor.ts";
import type { ModelHooks, StatefulHooks, WriteItem, Probe } from "../../schema/hooks.ts";
import { refSql } from "../../engine/references.ts";
import { idList } from "../../engine/select.ts";

/**
 * Where things stand and hang: NetBox's placement rules for devices in sites, locations, racks and
 * virtual chassis, for racks and rack types, reservations, power panels and feeds. Every check is
 * set-wise: `writeProbes` reads, in the write's first round trip, every row the items can name
 * (by reference or through their stored row), and `prepareWrite` judges the items in order, so
 * the objects of one bulk request are checked against each other as well as against stored rows.
 * Each hook set is made for its model, given lazily (`() => rack`), so this file imports no model
 * module and the model files can use it while they load.
 */

type Sql = RawBuilder<unknown>;
type Tables = Record<string, Map<number, Row>>;
type Lazy = () => Model;

/** A fresh set of tables for one write's probes to fill and its `prepareWrite` to read. */
const initial = (): Tables => ({});

/** A probe whose rows land in `tables[name]`, by `key`. */
function rowsProbe(tables: Tables, name: string, statement: Sql, key = "id"): Probe {
  const rows = (tables[name] = new Map<number, Row>());
  return {
    statement: statement.compile(qb),
    settle: (r) => r.rows.forEach((row) => rows.set(Number(row[key]), row)),
  };
}

/**
 * The ids an fk field of `owner` can hold across a write, as a SQL subquery: the references the
 * items give (by id or attributes) and the stored value of every updated object.
 */
function namedIds(ctx: Actor, owner: Model, items: readonly WriteItem[], name: string): Sql {
  const field = owner.field[name];
  const literal: number[] = [];
  const parts: Sql[] = [];
  for (const { values } of items) {
    const value = values[name];
    if (typeof value === "number") literal.push(value);
    else if (isRef(value) && value.ref === "id") literal.push(value.id);
    else if (isRef(value)) parts.push(sql`SELECT ${refSql(ctx, field.target!(), value)}`);
  }
  parts.unshift(sql`SELECT value FROM json_each(${JSON.stringify(literal)})`);
  const updating = items.flatMap((i) => (i.id === null ? [] : [i.id]));
  if (updating.length) parts.push(sql`SELECT ${sql.ref(field.column!)} FROM ${sql.table(owner.table)} WHERE id IN ${idList(updating)}`);
  return sql`(${sql.join(parts, sql` UNION `)})`;
}

/** A field's value after the write: as given, else as stored (`column`), else null. */
// biome-ignore lint/suspicious/noExplicitAny: a column of any kind; each caller knows the field it asks for
function after(item: WriteItem, name: string, column = name): any {
  if (item.values[name] !== undefined) return item.values[name];
  return item.current?.[column] ?? null;
}
const fkAfter = (item: WriteItem, name: string): number | null => {
  const v = after(item, name, `${name}_id`);
  return v === null ? null : Number(v);
};
const touches = (item: WriteItem, names: readonly string[]) => item.id === null || names.some((n) => item.values[n] !== undefined);

/** Records the first error of an item, as NetBox's `clean()` stops at the first problem. */
function refuse(item: WriteItem, field: string, message: string): void {
  item.errors[field] ??= [message];
}

/** A decimal as NetBox prints a one-place DecimalField: 10 -> "10.0". */
const decimal = (n: number) => n.toFixed(1);
const rackName = (r: Row) => (r.facility_id ? `${r.name} (${r.facility_id})` : String(r.name));
const nameOf = (rows: Map<number, Row> | undefined, id: number | null) => (id === null ? "None" : String(rows?.get(id)?.name ?? id));

// ---------------------------------------------------------------------------------------------
// Rack space.

/** Where a device sits in a rack: its lowest unit, its height, its face, and whether it takes both. */
interface Placement {
  readonly position: number;
  readonly height: number;
  readonly face: string | null;
  readonly fullDepth: boolean;
}

/** A device's footprint in a rack. */
interface Footprint extends Placement {
  readonly rack: number;
}

interface RackSpace {
  readonly starting_unit: number;
  readonly u_height: number;
}

/**
 * True when a device placed so fits in `rack`: every half unit it covers exists, and no other
 * footprint on the same face (or any face, when either device is full depth) covers one of them.
 */
function fits(rack: RackSpace & { id: number }, { position, height, face, fullDepth }: Placement, others: Iterable<Footprint>): boolean {
  const start = Number(rack.starting_unit);
  if (position < start || position + height > start + Number(rack.u_height) || (position * 2) % 1 !== 0) return false;
  for (const o of others) {
    if (o.rack !== rack.id || o.height <= 0) continue;
    if (!fullDepth && !o.fullDepth && o.face !== face) continue;
    if (position < o.position + o.height && o.position < position + height) return false;
  }
  return true;
}

/** The footprints of stored devices in probed racks, by device id. */
function footprints(rows: Map<number, Row> | undefined): Map<number | WriteItem, Footprint> {
  const out = new Map<number | WriteItem, Footprint>();
  for (const [id, r] of rows ?? []) {
    out.set(id, {
      rack: Number(r.rack_id),
      position: Number(r.position),
      height: Number(r.u_height),
      face: (r.face as string) ?? null,
      fullDepth: Boolean(r.is_full_depth),
    });
  }
  return out;
}

const otherThan = (all: Map<number | WriteItem, Footprint>, self: number | WriteItem) =>
  [...all].filter(([key]) => key !== self).map(([, f]) => f);

// ---------------------------------------------------------------------------------------------
// Devices.

const DEVICE_PLACEMENT = ["site", "location", "rack", "position", "face", "device_type", "virtual_chassis", "vc_position"];

/** The columns of the stored devices that occupy units of the racks `racks`. */
const occupantsSql = (racks: Sql) => sql`SELECT d.id, d.rack_id, d.position, d.face, dt.u_height, dt.is_full_depth
  FROM dcim_device d JOIN dcim_devicetype dt ON dt.id = d.device_type_id WHERE d.position IS NOT NULL AND d.rack_id IN ${racks}`;

function deviceProbes(ctx: Actor, items: readonly WriteItem[], device: Model, t: Tables): Probe[] {
  const relevant = items.filter((i) =>
    i.id === null ? ["rack", "location", "virtual_chassis"].some((n) => i.values[n] != null) : touches(i, DEVICE_PLACEMENT),
  );
  if (!relevant.length) return [];
  const racks = namedIds(ctx, device, items, "rack");
  const updating = items.flatMap((i) => (i.id === null ? [] : [i.id]));
  return [
    rowsProbe(
      t,
      "racks",
      sql`SELECT id, name, facility_id, site_id, location_id, u_height, starting_unit FROM dcim_rack WHERE id IN ${racks}`,
    ),
    rowsProbe(t, "occupants", occupantsSql(racks)),
    rowsProbe(
      t,
      "types",
      sql`SELECT id, model, u_height, is_full_depth, subdevice_role FROM dcim_devicetype WHERE id IN ${namedIds(ctx, device, items, "device_type")}`,
    ),
    rowsProbe(t, "locations", sql`SELECT id, name, site_id FROM dcim_location WHERE id IN ${namedIds(ctx, device, items, "location")}`),
    rowsProbe(t, "sites", sql`SELECT id, name FROM dcim_site WHERE id IN ${namedIds(ctx, device, items, "site")}`),
    rowsProbe(t, "mastering", sql`SELECT id, name, master_id FROM dcim_virtualchassis WHERE master_id IN ${idList(updating)}`, "master_id"),
  ];
}

/** The first placement problem of one device, given what the probes read and the space taken so far. */
function devicePlacementProblem(item: WriteItem, t: Tables, taken: Map<number | WriteItem, Footprint>): [string, string] | null {
  const site = fkAfter(item, "site");
  const rackId = fkAfter(item, "rack");
  let locationId = fkAfter(item, "location");
  const rack = rackId === null ? undefined : t.racks?.get(rackId);
  const position = after(item, "position") as number | null;
  const face = after(item, "face") as string | null;
  const siteName = nameOf(t.sites, site);

  if (rack && Number(rack.site_id) !== site) return ["rack", `Rack ${rackName(rack)} does not belong to site ${siteName}.`];
  if (locationId !== null) {
    const location = t.locations?.get(locationId);
    if (location && Number(location.site_id) !== site)
      return ["location", `Location ${location.name} does not belong to site ${siteName}.`];
  }
  if (rack && locationId !== null && Number(rack.location_id ?? 0) !== locationId) {
    return ["rack", `Rack ${rackName(rack)} does not belong to location ${nameOf(t.locations, locationId)}.`];
  }
  if (rack && locationId === null && rack.location_id !== null) {
    // A racked device stands in its rack's location.
    locationId = Number(rack.location_id);
    item.values.location = locationId;
  }
  if (rackId === null) {
    if (face) return ["face", "Cannot select a rack face without assigning a rack."];
    if (position) return ["position", "Cannot select a rack position without assigning a rack."];
  }
  if (position && (position * 2) % 1 !== 0) return ["position", "Position must be in increments of 0.5 rack units."];
  if (position && !face) return ["face", "Must specify rack face when defining rack position."];
  const type = t.types?.get(fkAfter(item, "device_type") ?? -1);
  if (!type) return null;
  const height = Number(type.u_height);
  if (position && height === 0) return ["position", `A 0U device type (${type.model}) cannot be assigned to a rack position.`];
  if (rack) {
    const child = type.subdevice_role === "child";
    if (child && face) return ["face", "Child device types cannot be assigned to a rack face. This is an attribute of the parent device."];
    if (child && position)
      return ["position", "Child device types cannot be assigned to a rack position. This is an attribute of the parent device."];
    const self = item.id ?? item;
    const fullDepth = Boolean(type.is_full_depth);
    if (
      position &&
      !fits({ ...(rack as unknown as RackSpace), id: rackId! }, { position, height, face, fullDepth }, otherThan(taken, self))
    ) {
      return [
        "position",
        `U${decimal(position)} is already occupied or does not have sufficient space to accommodate this device type: ${type.model} (${decimal(height)}U)`,
      ];
    }
    if (position) taken.set(self, { rack: rackId!, position, height, face, fullDepth });
    else taken.delete(self);
  }
  return null;
}

/** The first virtual-chassis problem of one device; `seats` holds the (chassis, position) pairs this write fills. */
function deviceChassisProblem(item: WriteItem, t: Tables, seats: Set<string>): [string, string] | null {
  const chassis = fkAfter(item, "virtual_chassis");
  const position = after(item, "vc_position") as number | null;
  if (chassis !== null && position === null)
    return ["vc_position", "A device assigned to a virtual chassis must have its position defined."];
  const mastered = item.id === null ? undefined : t.mastering?.get(item.id);
  if (mastered && Number(mastered.id) !== chassis) {
    return [
      "virtual_chassis",
      `Device cannot be removed from virtual chassis ${mastered.name} because it is currently designated as its master.`,
    ];
  }
  if (chassis !== null && touches(item, ["virtual_chassis", "vc_position"])) {
    const seat = `${chassis}:${position}`;
    if (seats.has(seat)) return ["__all__", "Device with this Virtual chassis and VC position already exists."];
    seats.add(seat);
  }
  return null;
}

/** A new device without an airflow takes its type's, as NetBox's save does. */
export const deviceAirflowHooks = (device: Lazy): StatefulHooks<Map<number, unknown>> => ({
  initial: () => new Map(),
  writeProbes: (ctx, items, airflows) => {
    const creating = items.filter((i) => i.id === null && i.values.airflow == null);
    if (!creating.length) return [];
    const types = namedIds(ctx, device(), creating, "device_type");
    return [
      {
        statement: sql`SELECT id, airflow FROM dcim_devicetype WHERE airflow IS NOT NULL AND id IN ${types}`.compile(qb),
        settle: (r) => {
          for (const row of r.rows) airflows.set(Number(row.id), row.airflow);
        },
      },
    ];
  },
  prepareWrite: (_ctx, items, airflows) => {
    for (const item of items) {
      const airflow = item.id === null && item.values.airflow == null ? airflows.get(fkAfter(item, "device_type") ?? -1) : undefined;
      if (airflow !== undefined) item.values.airflow = airflow;
    }
  },
});

export const devicePlacementHooks = (device: Lazy): StatefulHooks<Tables> => ({
  initial,
  writeProbes: (ctx, items, t) => deviceProbes(ctx, items, device(), t),
  prepareWrite: (_ctx, items, t) => {
    const taken = footprints(t.occupants);
    const seats = new Set<string>();
    for (const item of items) {
      if (!touches(item, DEVICE_PLACEMENT)) continue;
      const problem = devicePlacementProblem(item, t, taken) ?? deviceChassisProblem(item, t, seats);
      if (problem) refuse(item, ...problem);
    }
  },
});

// ---------------------------------------------------------------------------------------------
// Device types: a taller type must still fit wherever it is mounted.

/** `device` gives the display of a device that would no longer fit. */
export const deviceTypeHeightHooks = (device: Lazy): StatefulHooks<Tables> => ({
  initial,
  writeProbes: (_ctx, items, t) => {
    const changed = items.flatMap((i) => (i.id !== null && i.values.u_height !== undefined ? [i.id] : []));
    if (!changed.length) return [];
    const racks = sql`(SELECT rack_id FROM dcim_device WHERE device_type_id IN ${idList(changed)} AND position IS NOT NULL)`;
    return [
      rowsProbe(t, "racks", sql`SELECT id, name, facility_id, u_height, starting_unit FROM dcim_rack WHERE id IN ${racks}`),
      rowsProbe(
        t,
        "occupants",
        sql`SELECT o.*, d.device_type_id, ${device().displaySql("d")} AS display
        FROM (${occupantsSql(racks)}) o JOIN dcim_device d ON d.id = o.id`,
      ),
    ];
  },
  prepareWrite: (_ctx, items, t) => {
    const taken = footprints(t.occupants);
    for (const item of items) {
      if (item.id === null || item.values.u_height === undefined || !item.current) continue;
      const height = Number(item.values.u_height);
      const before = Number(item.current.u_height);
      const mounted = [...(t.occupants?.values() ?? [])].filter((d) => Number(d.device_type_id) === item.id);
      if (height > before) {
        const fullDepth = Boolean(after(item, "is_full_depth"));
        for (const d of mounted) {
          const rack = t.racks?.get(Number(d.rack_id));
          const placement = { position: Number(d.position), height, face: fullDepth ? null : (d.face as string), fullDepth };
          if (!rack || fits({ ...(rack as unknown as RackSpace), id: Number(rack.id) }, placement, otherThan(taken, Number(d.id))))
            continue;
          refuse(
            item,
            "u_height",
            `Device ${d.display} in rack ${rackName(rack)} does not have sufficient space to accommodate a height of ${decimal(height)}U`,
          );
          break;
        }
      } else if (height === 0 && before > 0 && mounted.length) {
        refuse(item, "u_height", `Unable to set 0U height: Found ${mounted.length} instances already mounted within racks.`);
      }
    }
  },
});

// ---------------------------------------------------------------------------------------------
// Locations: a parent in the same site; a move to another site takes everything inside along.

export const locationHooks = (locationModel: Lazy): StatefulHooks<Tables> => ({
  initial,
  writeProbes: (ctx, items, t) => {
    if (!items.some((i) => (i.id === null ? i.values.parent != null : touches(i, ["site", "parent"])))) return [];
    const location = locationModel();
    return [
      rowsProbe(t, "parents", sql`SELECT id, name, site_id FROM dcim_location WHERE id IN ${namedIds(ctx, location, items, "parent")}`),
      rowsProbe(t, "sites", sql`SELECT id, name FROM dcim_site WHERE id IN ${namedIds(ctx, location, items, "site")}`),
    ];
  },
  prepareWrite: (_ctx, items, t) => {
    for (const item of items) {
      if (!touches(item, ["site", "parent"])) continue;
      const parent = t.parents?.get(fkAfter(item, "parent") ?? -1);
      const site = fkAfter(item, "site");
      if (parent && Number(parent.site_id) !== site) {
        refuse(item, "__all__", `Parent location (${parent.name}) must belong to the same site (${nameOf(t.sites, site)}).`);
      }
    }
  },
  writeStatements: (_ctx, items) => {
    const moved = items.flatMap((i) => (i.id !== null && i.values.site !== undefined ? [i.id] : []));
    if (!moved.length) return [];
    // Runs after the moved locations are written: each descendant takes its moved ancestor's site.
    const subtree = sql`WITH RECURSIVE s(id, site_id) AS (SELECT id, site_id FROM dcim_location WHERE id IN ${idList(moved)}
      UNION SELECT l.id, s.site_id FROM dcim_location l JOIN s ON l.parent_id = s.id)`;
    const inSubtree = sql`(SELECT id FROM s)`;
    const siteOfLocation = (t: string) => sql`(SELECT l.site_id FROM dcim_location l WHERE l.id = ${sql.ref(`${t}.location_id`)})`;
    return [
      sql`${subtree} UPDATE dcim_location SET site_id = (SELECT s.site_id FROM s WHERE s.id = dcim_location.id) WHERE id IN ${inSubtree}`,
      ...["dcim_rack", "dcim_device", "dcim_powerpanel"].map(
        (table) => sql`${subtree} UPDATE ${sql.table(table)} SET site_id = ${siteOfLocation(table)} WHERE location_id IN ${inSubtree}`,
      ),
    ].map((statement) => statement.compile(qb)) satisfies Statement[];
  },
});

// ---------------------------------------------------------------------------------------------
// Rack types and racks.

/** The unit checks racks and rack types share (NetBox's RackBase and weight rules). */
function physicalProblem(item: WriteItem): string | null {
  const outer = after(item, "outer_width") !== null || after(item, "outer_depth") !== null;
  if (outer && !after(item, "outer_unit")) return "Must specify a unit when setting an outer width/depth";
  if (after(item, "weight") && !after(item, "weight_unit")) return "Must specify a unit when setting a weight";
  if (after(item, "max_weight") && !after(item, "weight_unit")) return "Must specify a unit when setting a maximum weight";
  return null;
}

/** An outer unit without outer dimensions is cleared on save, as NetBox does. */
function clearOuterUnit(item: WriteItem): void {
  if (after(item, "outer_width") === null && after(item, "outer_depth") === null && after(item, "outer_unit") !== null)
    item.values.outer_unit = null;
}

export const rackTypeHooks: ModelHooks = {
  prepareWrite: (_ctx, items) => {
    for (const item of items) {
      const problem = physicalProblem(item);
      if (problem) refuse(item, "__all__", problem);
      else clearOuterUnit(item);
    }
  },
};

/** The physical attributes a rack takes from its rack type. */
const RACK_TYPE_ATTRIBUTES = [
  "form_factor",
  "width",
  "u_height",
  "starting_unit",
  "desc_units",
  "outer_width",
  "outer_depth",
  "outer_unit",
  "mounting_depth",
  "weight",
  "max_weight",
  "weight_unit",
];

export const rackHooks = (rackModel: Lazy): StatefulHooks<Tables> => ({
  initial,
  writeProbes: (ctx, items, t) => {
    const rack = rackModel();
    const updating = items.flatMap((i) => (i.id === null ? [] : [i.id]));
    return [
      rowsProbe(t, "types", sql`SELECT * FROM dcim_racktype WHERE id IN ${namedIds(ctx, rack, items, "rack_type")}`),
      rowsProbe(t, "locations", sql`SELECT id, site_id FROM dcim_location WHERE id IN ${namedIds(ctx, rack, items, "location")}`),
      rowsProbe(t, "sites", sql`SELECT id, name FROM dcim_site WHERE id IN ${namedIds(ctx, rack, items, "site")}`),
      rowsProbe(
        t,
        "mounted",
        sql`SELECT d.rack_id, min(d.position) AS lowest, max(d.position + dt.u_height) AS top
        FROM dcim_device d JOIN dcim_devicetype dt ON dt.id = d.device_type_id
        WHERE d.rack_id IN ${idList(updating)} AND d.position IS NOT NULL GROUP BY d.rack_id`,
        "rack_id",
      ),
    ];
  },
  prepareWrite: (_ctx, items, t) => {
    for (const item of items) {
      const type = t.types?.get(fkAfter(item, "rack_type") ?? -1);
      if (type) {
        // The type's physical attributes win on every save, as in NetBox.
        for (const name of RACK_TYPE_ATTRIBUTES) item.values[name] = name === "desc_units" ? Boolean(type[name]) : (type[name] ?? null);
      }
      const problem = physicalProblem(item);
      if (problem) {
        refuse(item, "__all__", problem);
        continue;
      }
      clearOuterUnit(item);
      const mounted = item.id === null ? undefined : t.mounted?.get(item.id);
      const start = Number(after(item, "starting_unit"));
      if (mounted && Number(after(item, "u_height")) < Number(mounted.top) - start) {
        refuse(
          item,
          "u_height",
          `Rack must be at least ${decimal(Number(mounted.top) - start)}U tall to house currently installed devices.`,
        );
        continue;
      }
      if (mounted && start > Number(mounted.lowest)) {
        refuse(
          item,
          "starting_unit",
          `Rack unit numbering must begin at ${decimal(Number(mounted.lowest))} or less to house currently installed devices.`,
        );
        continue;
      }
      const location = t.locations?.get(fkAfter(item, "location") ?? -1);
      const site = fkAfter(item, "site");
      if (location && Number(location.site_id) !== site)
        refuse(item, "location", `Location must be from the same site, ${nameOf(t.sites, site)}.`);
    }
  },
  // Devices follow their rack to another site or location (NetBox's rack site-change signal).
  writeStatements: (_ctx, items) => {
    const moved = items.flatMap((i) => (i.id !== null && (i.values.site !== undefined || i.values.location !== undefined) ? [i.id] : []));
    if (!moved.length) return [];
    return [
      sql`UPDATE dcim_device SET site_id = (SELECT r.site_id FROM dcim_rack r WHERE r.id = dcim_device.rack_id),
      location_id = (SELECT r.location_id FROM dcim_rack r WHERE r.id = dcim_device.rack_id) WHERE rack_id IN ${idList(moved)}`.compile(qb),
    ];
  },
});

// ---------------------------------------------------------------------------------------------
// Rack reservations: units the rack has, not reserved twice.

export const rackReservationHooks = (reservation: Lazy): StatefulHooks<Tables> => ({
  initial,
  writeProbes: (ctx, items, t) => {
    const racks = namedIds(ctx, reservation(), items, "rack");
    return [
      rowsProbe(t, "racks", sql`SELECT id, u_height, starting_unit FROM dcim_rack WHERE id IN ${racks}`),
      rowsProbe(t, "reservations", sql`SELECT id, rack_id, units FROM dcim_rackreservation WHERE rack_id IN ${racks}`),
    ];
  },
  prepareWrite: (_ctx, items, t) => {
    const held = new Map<number | WriteItem, { rack: number; units: number[] }>();
    for (const [id, r] of t.reservations ?? []) held.set(id, { rack: Number(r.rack_id), units: JSON.parse(String(r.units)) });
    for (const item of items) {
      const rackId = fkAfter(item, "rack");
      const rack = t.racks?.get(rackId ?? -1);
      const units = (item.values.units ?? JSON.parse(String(item.current?.units ?? "[]"))) as number[];
      if (!rack) continue;
      const start = Number(rack.starting_unit);
      const invalid = units.filter((u) => u < start || u >= start + Number(rack.u_height));
      if (invalid.length) {
        refuse(item, "units", `Invalid unit(s) for ${rack.u_height}U rack: ${invalid.join(", ")}`);
        continue;
      }
      const self = item.id ?? item;
      const reserved = new Set([...held].filter(([key, r]) => key !== self && r.rack === rackId).flatMap(([, r]) => r.units));
      const conflicts = units.filter((u) => reserved.has(u));
      if (conflicts.length) {
        refuse(item, "units", `The following units have already been reserved: ${conflicts.join(", ")}`);
        continue;
      }
      held.set(self, { rack: rackId!, units });
    }
  },
});

// ---------------------------------------------------------------------------------------------
// Virtual chassis: the master is a member; a new chassis takes its master in as member 1.

export const virtualChassisHooks = (chassis: Lazy): StatefulHooks<Tables> => ({
  initial,
  writeProbes: (ctx, items, t) => [
    rowsProbe(
      t,
      "masters",
      sql`SELECT id, virtual_chassis_id, ${chassis().field.master.target!().displaySql("dcim_device")} AS display
      FROM dcim_device WHERE id IN ${namedIds(ctx, chassis(), items, "master")}`,
    ),
  ],
  prepareWrite: (_ctx, items, t) => {
    for (const item of items) {
      const master = t.masters?.get(fkAfter(item, "master") ?? -1);
      if (item.id !== null && master && Number(master.virtual_chassis_id ?? 0) !== item.id) {
        refuse(item, "master", `The selected master (${master.display}) is not assigned to this virtual chassis.`);
      }
    }
  },
  writeStatements: (_ctx, items) => {
    const masters = items.flatMap((i) => (i.id === null && typeof i.values.master === "number" ? [i.values.master] : []));
    if (!masters.length) return [];
    return [
      sql`UPDATE dcim_device SET virtual_chassis_id = (SELECT v.id FROM dcim_virtualchassis v WHERE v.master_id = dcim_device.id),
      vc_position = 1 WHERE id IN ${idList(masters)}`.compile(qb),
    ];
  },
});

// ---------------------------------------------------------------------------------------------
// Power panels and feeds: in one site.

export const powerPanelHooks = (panelModel: Lazy): StatefulHooks<Tables> => ({
  initial,
  writeProbes: (ctx, items, t) => {
    const panel = panelModel();
    return [
      rowsProbe(
        t,
        "locations",
        sql`SELECT l.id, l.name, l.site_id, s.name AS site_name FROM dcim_location l JOIN dcim_site s ON s.id = l.site_id
        WHERE l.id IN ${namedIds(ctx, panel, items, "location")}`,
      ),
      rowsProbe(t, "sites", sql`SELECT id, name FROM dcim_site WHERE id IN ${namedIds(ctx, panel, items, "site")}`),
    ];
  },
  prepareWrite: (_ctx, items, t) => {
    for (const item of items) {
      const location = t.locations?.get(fkAfter(item, "location") ?? -1);
      const site = fkAfter(item, "site");
      if (location && Number(location.site_id) !== site) {
        refuse(item, "__all__", `Location ${location.name} (${location.site_name}) is in a different site than ${nameOf(t.sites, site)}`);
      }
    }
  },
});

export const powerFeedHooks = (feedModel: Lazy): StatefulHooks<Tables> => ({
  initial,
  writeProbes: (ctx, items, t) => {
    const feed = feedModel();
    return [
      rowsProbe(
        t,
        "panels",
        sql`SELECT p.id, p.name, p.site_id, s.name AS site_name FROM dcim_powerpanel p JOIN dcim_site s ON s.id = p.site_id
        WHERE p.id IN ${namedIds(ctx, feed, items, "power_panel")}`,
      ),
      rowsProbe(
        t,
        "racks",
        sql`SELECT r.id, r.name, r.facility_id, r.site_id, s.name AS site_name FROM dcim_rack r JOIN dcim_site s ON s.id = r.site_id
        WHERE r.id IN ${namedIds(ctx, feed, items, "rack")}`,
      ),
    ];
  },
  prepareWrite: (_ctx, items, t) => {
    for (const item of items) {
      const panel = t.panels?.get(fkAfter(item, "power_panel") ?? -1);
      const rack = t.racks?.get(fkAfter(item, "rack") ?? -1);
      if (panel && rack && Number(rack.site_id) !== Number(panel.site_id)) {
        refuse(
          item,
          "__all__",
          `Rack ${rackName(rack)} (${rack.site_name}) and power panel ${panel.name} (${panel.site_name}) are in different sites.`,
        );
      } else if (Number(after(item, "voltage")) < 0 && after(item, "supply") === "ac") {
        refuse(item, "voltage", "Voltage cannot be negative for AC supply");
      }
    }
  },
});
