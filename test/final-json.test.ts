import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, ORIGIN, type Harness } from "./support/harness.ts";
import { createGraphqlDataset } from "./support/graphql-dataset.ts";
import { registry } from "../src/apps/index.ts";
import { parseConfig } from "../src/config.ts";
import { BRIEF, FULL, listObjects, listTexts, retrieveObject, retrieveText, type Selection } from "../src/engine/crud.ts";
import { finalRead } from "../src/engine/read-statements.ts";
import type { Actor } from "../src/schema/actor.ts";
import type { Model } from "../src/schema/shapes.ts";

/*
 * Objects whose final JSON SQLite writes (src/engine/final-json.ts) must read exactly as the
 * serializer shapes them from the raw rows (src/engine/serialize.ts), for every model and form
 * that qualifies: the same keys in the same order and the same values.
 */

let h: Harness;
let actor: Actor;

beforeAll(async () => {
  h = await createHarness();
  await createGraphqlDataset(h, { run: "fj", net4: "10.77.1", net6: "2001:db8:77" });
  // Tags on objects of several models, so that nested tags are written too.
  const tag = (await h.post("/api/extras/tags/", { name: "Blue O'Neil", slug: "blue", color: "0000ff", description: 'a "quoted" tag' }))
    .body;
  const other = (await h.post("/api/extras/tags/", { name: "Äpfel", slug: "apfel" })).body;
  for (const path of ["dcim/sites", "dcim/regions", "tenancy/tenants", "dcim/manufacturers", "ipam/vlans", "ipam/prefixes", "dcim/racks"]) {
    const first = (await h.get(`/api/${path}/?limit=1`)).body.results?.[0];
    if (first) expect((await h.patch(`/api/${path}/${first.id}/`, { tags: [tag.id, other.id] })).status).toBe(200);
  }
  // Objects that nest a device or a device type (models with a `represent` hook, which shapes only
  // their own pages): their nested forms are written by SQLite too.
  const device = (await h.get("/api/dcim/devices/?limit=1")).body.results[0];
  const made = async (path: string, body: unknown) => {
    const reply = await h.post(path, body);
    expect(reply.status, `${path} ${reply.text}`).toBe(201);
    return reply.body;
  };
  const typeId = device.device_type.id;
  expect((await h.patch(`/api/dcim/device-types/${typeId}/`, { subdevice_role: "parent" })).status).toBe(200);
  for (const [path, name] of [
    ["dcim/interface-templates", "eth9"],
    ["dcim/console-port-templates", "con9"],
    ["dcim/console-server-port-templates", "cs9"],
    ["dcim/power-port-templates", "psu9"],
    ["dcim/power-outlet-templates", "out9"],
    ["dcim/device-bay-templates", "bay9"],
    ["dcim/module-bay-templates", "mbay9"],
  ])
    await made(`/api/${path}/`, { device_type: typeId, name, ...(path.includes("interface") ? { type: "1000base-t" } : {}) });
  const rear = await made("/api/dcim/rear-port-templates/", { device_type: typeId, name: "rear9", type: "8p8c", positions: 1 });
  await made("/api/dcim/front-port-templates/", { device_type: typeId, name: "front9", type: "8p8c", rear_port: rear.id });
  await made("/api/dcim/device-bays/", { device: device.id, name: "bay-a" });
  const bay = await made("/api/dcim/module-bays/", { device: device.id, name: "slot-a" });
  const moduleType = await made("/api/dcim/module-types/", { manufacturer: device.device_type.manufacturer.id, model: "LC-9" });
  await made("/api/dcim/modules/", { device: device.id, module_bay: bay.id, module_type: moduleType.id });
  await made("/api/dcim/inventory-items/", { device: device.id, name: "optic-a" });
  // Ports of other models, cabled: their cables, link peers and connections are written or filled too.
  const rearPort = await made("/api/dcim/rear-ports/", { device: device.id, name: "rear-a", type: "8p8c", positions: 1 });
  const frontPort = await made("/api/dcim/front-ports/", { device: device.id, name: "front-a", type: "8p8c", rear_port: rearPort.id });
  const consolePort = await made("/api/dcim/console-ports/", { device: device.id, name: "con-a" });
  const serverPort = await made("/api/dcim/console-server-ports/", { device: device.id, name: "cs-a" });
  await made("/api/dcim/power-ports/", { device: device.id, name: "psu-a" });
  await made("/api/dcim/cables/", {
    a_terminations: [{ object_type: "dcim.consoleport", object_id: consolePort.id }],
    b_terminations: [{ object_type: "dcim.frontport", object_id: frontPort.id }],
  });
  await made("/api/dcim/cables/", {
    a_terminations: [{ object_type: "dcim.rearport", object_id: rearPort.id }],
    b_terminations: [{ object_type: "dcim.consoleserverport", object_id: serverPort.id }],
  });
  await made("/api/dcim/virtual-chassis/", { name: "vc-a", master: device.id });
  await made("/api/ipam/services/", { device: device.id, name: "ssh", protocol: "tcp", ports: [22] });
  const vm = (await h.get("/api/virtualization/virtual-machines/?limit=1")).body.results[0];
  await made("/api/virtualization/virtual-disks/", { virtual_machine: vm.id, name: "disk-a", size: 10 });
  const [version] = await h.db.batch([{ sql: "SELECT version FROM auth_state", parameters: [] }], "read");
  // The superuser as a token request sees it, custom fields known (none count: their objects' are `{}`).
  actor = {
    origin: ORIGIN,
    requestId: "final-json",
    now: new Date(),
    config: parseConfig({ LIBSQL_URL: ":memory:" }),
    db: h.db,
    secrets: h.app.secrets,
    clientAddress: "127.0.0.1",
    waitUntil: () => {},
    enqueue: async () => {},
    user: { id: 1, username: "admin", is_superuser: true, is_active: true, grants: [] },
    token: { id: 1, write_enabled: true },
    auth: { version: Number(version.rows[0].version), cached: false, objectFields: new Map() },
    revealedKeys: new Map(),
  } as Actor;
}, 120_000);
afterAll(() => h.close());

const forms: [string, Selection, "full" | "brief"][] = [
  ["full", FULL, "full"],
  ["brief", BRIEF, "brief"],
];

/** The objects of a page's texts: one text each, or all of them joined by commas (as text or bytes). */
const objectsOf = (texts: readonly string[] | string | Uint8Array): unknown[] =>
  typeof texts === "string" || texts instanceof Uint8Array
    ? JSON.parse(`[${typeof texts === "string" ? texts : new TextDecoder().decode(texts)}]`)
    : texts.map((t) => JSON.parse(t));

const written = (model: Model, form: "full" | "brief") =>
  finalRead(actor, model, form === "brief" ? model.briefFields : model.readableFields, form, true) !== null;

describe("objects written whole by SQLite", () => {
  it("read as the serializer shapes them, for every model and form that qualifies, lists and details", async () => {
    const compared: string[] = [];
    for (const model of registry.models) {
      for (const [name, selection, form] of forms) {
        if (!written(model, form)) continue;
        const query = { filters: [], ordering: null, page: { limit: null, offset: 0 }, selection };
        const shaped = await listObjects(actor, model, query);
        const texts = await listTexts(actor, model, query);
        expect("texts" in texts, model.objectType).toBe(true);
        if (!("texts" in texts)) continue;
        expect(texts.count).toBe(shaped.count);
        // Key order counts: compared as text after a round trip of both through the same parser.
        const asText = (values: unknown[]) => values.map((v) => JSON.stringify(v));
        expect(asText(objectsOf(texts.texts)), `${model.objectType} ${name}`).toEqual(asText(shaped.results));
        for (const object of shaped.results.slice(0, 3)) {
          const id = Number(object.id);
          const text = await retrieveText(actor, model, id, selection);
          expect(typeof text, model.objectType).toBe("string");
          expect(JSON.stringify(JSON.parse(text as string)), `${model.objectType} ${id} ${name}`).toEqual(
            JSON.stringify(await retrieveObject(actor, model, id, selection)),
          );
        }
        if (shaped.count) compared.push(`${model.objectType} ${name}`);
      }
    }
    // Most of the registry's simpler models qualify, with rows to compare.
    for (const expected of [
      "dcim.site full",
      "dcim.site brief",
      "dcim.region full",
      "tenancy.tenant full",
      // Nesting a model with a `represent` hook (a device, a device type).
      "dcim.module full",
      "dcim.modulebay full",
      "dcim.devicebay full",
      "dcim.inventoryitem brief",
      "dcim.virtualchassis full",
      "dcim.interfacetemplate full",
      "dcim.frontporttemplate full",
      "ipam.service full",
      "virtualization.virtualdisk full",
      // Config contexts finished in JavaScript between two parts of the text; `primary_ip` as SQL.
      "dcim.device full",
      "dcim.device brief",
      "virtualization.virtualmachine full",
      // Cables, link peers and connections: nested objects of models named at run time.
      "dcim.interface full",
      "dcim.interface brief",
      "dcim.cable full",
      "dcim.frontport full",
      "dcim.rearport full",
      "dcim.consoleport full",
      "dcim.consoleserverport full",
      "dcim.powerport full",
    ])
      expect(compared, expected).toContain(expected);
    expect(compared.length).toBeGreaterThan(30);
  }, 120_000);

  it("leave a model to the serializer where a field's kind cannot be written so, a hook shapes it, or custom fields are defined", async () => {
    // A hook without its SQL (an FHRP group's nested addresses) leaves the model to the serializer.
    expect(written(registry.byObjectType("ipam.fhrpgroup")!, "full")).toBe(false);
    // Config contexts are merged in JavaScript over the page, `primary_ip` is the hook's SQL.
    const device = registry.byObjectType("dcim.device")!;
    expect(written(device, "full")).toBe(true);
    const site = registry.byObjectType("dcim.site")!;
    expect(written(site, "full")).toBe(true);
    const withCustomFields = { ...actor, auth: { ...actor.auth!, objectFields: new Map([["dcim.site", []]]) } } as Actor;
    expect(finalRead(withCustomFields, site, site.readableFields, "full", true)).toBeNull();
    // A request without known custom fields (no token) is shaped too, and answers the same.
    const anonymous = { ...actor, auth: null } as Actor;
    expect(finalRead(anonymous, site, site.readableFields, "full", true)).toBeNull();
  });

  it("answer the API's list and detail requests with the text, ?fields= through the serializer", async () => {
    const site = (await h.get("/api/dcim/sites/?limit=1")).body.results[0];
    const detail = await h.get(`/api/dcim/sites/${site.id}/`);
    expect(detail.body).toEqual(site);
    expect(detail.text.startsWith(`{"id":${site.id},"url":"${ORIGIN}/api/dcim/sites/${site.id}/"`)).toBe(true);
    const page = await h.get("/api/dcim/sites/?limit=1&offset=1");
    expect(Object.keys(page.body)).toEqual(["count", "next", "previous", "results"]);
    expect(page.body.previous).toBe(`${ORIGIN}/api/dcim/sites/?limit=1`);
    expect((await h.get(`/api/dcim/sites/${site.id}/?fields=id,name`)).body).toEqual({ id: site.id, name: site.name });
    const empty = await h.get("/api/dcim/sites/?name=nothing-named-so");
    expect(empty.body).toEqual({ count: 0, next: null, previous: null, results: [] });
  });
});
