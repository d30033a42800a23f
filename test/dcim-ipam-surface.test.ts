/**
 * NetBox 4.2's dcim and ipam endpoints and fields this service added late: virtual device
 * contexts, cable terminations, the connected-device lookup, VLAN translation, Q-in-Q service
 * VLANs on interfaces, prefix counts of places, and the filter lookups NetBox derives for its
 * multi-value filters (`__n`, MAC address text lookups, number lookups of computed values).
 * Each filter is checked to narrow the list to exactly what NetBox's would give.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "./support/harness.ts";
import { listed, make } from "./contract/fixtures.ts";

let api: Harness;
const id: Record<string, number> = {};

/** The `key` (default `name`) of each result of a list, which must answer 200. */
const names = (path: string, key = "name") => listed(api, path, key);

const iface = (device: number, name: string, extra = {}) =>
  make(api, "/api/dcim/interfaces/", { device, name, type: "1000base-t", ...extra });
const cable = (a: number, b: number) =>
  make(api, "/api/dcim/cables/", {
    a_terminations: [{ object_type: "dcim.interface", object_id: a }],
    b_terminations: [{ object_type: "dcim.interface", object_id: b }],
  });

beforeAll(async () => {
  api = await createHarness();
  id.europe = await make(api, "/api/dcim/regions/", { name: "Europe", slug: "europe" });
  id.germany = await make(api, "/api/dcim/regions/", { name: "Germany", slug: "germany", parent: id.europe });
  id.group = await make(api, "/api/dcim/site-groups/", { name: "Edge", slug: "edge" });
  id.ber = await make(api, "/api/dcim/sites/", { name: "Berlin", slug: "ber", region: id.germany, group: id.group });
  id.floor = await make(api, "/api/dcim/locations/", { name: "Floor 1", slug: "floor-1", site: id.ber });
  id.room = await make(api, "/api/dcim/locations/", { name: "Room 1", slug: "room-1", site: id.ber, parent: id.floor });
  const manufacturer = await make(api, "/api/dcim/manufacturers/", { name: "Acme", slug: "acme" });
  const device_type = await make(api, "/api/dcim/device-types/", { manufacturer, model: "Switch", slug: "switch" });
  const role = await make(api, "/api/dcim/device-roles/", { name: "Leaf", slug: "leaf" });
  const device = (name: string) => make(api, "/api/dcim/devices/", { name, site: id.ber, device_type, role });
  id.sw1 = await device("sw1");
  id.sw2 = await device("sw2");
  id.sw3 = await device("sw3");
  id.eth0 = await iface(id.sw1, "eth0");
  id.eth1 = await iface(id.sw1, "eth1");
  id.peer0 = await iface(id.sw2, "eth0");
  id.peer1 = await iface(id.sw3, "eth9");
  id.cable0 = await cable(id.eth0, id.peer0);
  id.cable1 = await cable(id.eth1, id.peer1);
});
afterAll(() => api.close());

describe("virtual device contexts", () => {
  it("are created on a device with a unique identifier and name there, and count their interfaces", async () => {
    id.vdc1 = await make(api, "/api/dcim/virtual-device-contexts/", { name: "admin", device: id.sw1, identifier: 1, status: "active" });
    id.vdc2 = await make(api, "/api/dcim/virtual-device-contexts/", { name: "prod", device: id.sw1, identifier: 2, status: "planned" });
    id.vdc3 = await make(api, "/api/dcim/virtual-device-contexts/", { name: "admin", device: id.sw2, identifier: 1, status: "active" });
    const twice = await api.post("/api/dcim/virtual-device-contexts/", { name: "other", device: id.sw1, identifier: 1, status: "active" });
    expect(twice.status, twice.text).toBe(400);
    expect(JSON.stringify(twice.body)).toContain("Virtual device context with this Device and Identifier already exists.");
    const sameName = await api.post("/api/dcim/virtual-device-contexts/", { name: "admin", device: id.sw1, status: "active" });
    expect(sameName.status, sameName.text).toBe(400);
    expect(JSON.stringify(sameName.body)).toContain("Virtual device context with this Device and Name already exists.");
    const missing = await api.post("/api/dcim/virtual-device-contexts/", { name: "x", device: id.sw1 });
    expect(missing).toMatchObject({ status: 400, body: { status: ["This field is required."] } });

    const got = await api.get(`/api/dcim/virtual-device-contexts/${id.vdc1}/`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      name: "admin",
      identifier: 1,
      device: { id: id.sw1, name: "sw1" },
      status: { value: "active", label: "Active" },
      primary_ip: null,
      primary_ip4: null,
      primary_ip6: null,
      tenant: null,
      interface_count: 0,
      display: "admin",
    });
    const brief = await api.get(`/api/dcim/virtual-device-contexts/${id.vdc1}/?brief=1`);
    expect(Object.keys(brief.body).sort()).toEqual(["description", "device", "display", "id", "identifier", "name", "url"]);
  });

  it("take primary addresses only from interfaces of their device", async () => {
    const own = await make(api, "/api/ipam/ip-addresses/", {
      address: "10.0.0.1/24",
      assigned_object_type: "dcim.interface",
      assigned_object_id: id.eth0,
    });
    const foreign = await make(api, "/api/ipam/ip-addresses/", {
      address: "10.0.0.2/24",
      assigned_object_type: "dcim.interface",
      assigned_object_id: id.peer0,
    });
    const v6 = await make(api, "/api/ipam/ip-addresses/", {
      address: "2001:db8::1/64",
      assigned_object_type: "dcim.interface",
      assigned_object_id: id.eth0,
    });
    const refused = await api.patch(`/api/dcim/virtual-device-contexts/${id.vdc1}/`, { primary_ip4: foreign });
    expect(refused).toMatchObject({
      status: 400,
      body: { primary_ip4: ["Primary IP address must belong to an interface on the assigned device."] },
    });
    const family = await api.patch(`/api/dcim/virtual-device-contexts/${id.vdc1}/`, { primary_ip4: v6 });
    expect(family).toMatchObject({ status: 400, body: { primary_ip4: ["2001:db8::1/64 is not an IPv4 address."] } });
    const set = await api.patch(`/api/dcim/virtual-device-contexts/${id.vdc1}/`, { primary_ip4: own });
    expect(set.status, set.text).toBe(200);
    expect(set.body.primary_ip4).toMatchObject({ id: own, address: "10.0.0.1/24" });
    expect(set.body.primary_ip).toMatchObject({ id: own });
    expect(await names("/api/dcim/virtual-device-contexts/?has_primary_ip=true")).toEqual(["admin"]);
    expect(await names(`/api/dcim/virtual-device-contexts/?primary_ip4_id=${own}`)).toEqual(["admin"]);
    // A context created with its device takes an address of that device's interfaces at once.
    const fresh = await api.post("/api/dcim/virtual-device-contexts/", { name: "lab", device: id.sw1, status: "offline", primary_ip6: v6 });
    expect(fresh.status, fresh.text).toBe(201);
    expect((await api.delete(`/api/dcim/virtual-device-contexts/${fresh.body.id}/`)).status).toBe(204);
  });

  it("are an interface's `vdcs`, which must be contexts of the interface's device", async () => {
    const set = await api.patch(`/api/dcim/interfaces/${id.eth0}/`, { vdcs: [id.vdc1, id.vdc2] });
    expect(set.status, set.text).toBe(200);
    expect(set.body.vdcs.map((v: any) => v.name)).toEqual(["admin", "prod"]);
    expect(set.body.vdcs[0]).toMatchObject({ id: id.vdc1, identifier: 1, device: { id: id.sw1 } });
    expect((await api.patch(`/api/dcim/interfaces/${id.eth1}/`, { vdcs: [id.vdc2] })).status).toBe(200);
    const foreign = await api.patch(`/api/dcim/interfaces/${id.eth0}/`, { vdcs: [id.vdc3] });
    expect(foreign.status, foreign.text).toBe(400);
    expect(foreign.body.vdcs[0]).toContain("does not belong to the interface's device");
    const created = await api.post("/api/dcim/interfaces/", { device: id.sw2, name: "eth7", type: "virtual", vdcs: [id.vdc1] });
    expect(created.status, created.text).toBe(400);
    expect((await api.get(`/api/dcim/virtual-device-contexts/${id.vdc2}/`)).body.interface_count).toBe(2);
  });

  it("filter interfaces (vdc, vdc_id, vdc_identifier, each negated), devices and themselves", async () => {
    expect(await names(`/api/dcim/interfaces/?vdc_id=${id.vdc1}`)).toEqual(["eth0"]);
    expect(await names(`/api/dcim/interfaces/?vdc_id=${id.vdc2}`)).toEqual(["eth0", "eth1"]);
    expect(await names(`/api/dcim/interfaces/?device_id=${id.sw1}&vdc_id__n=${id.vdc1}`)).toEqual(["eth1"]);
    expect(await names("/api/dcim/interfaces/?vdc=prod")).toEqual(["eth0", "eth1"]);
    expect(await names(`/api/dcim/interfaces/?device_id=${id.sw1}&vdc__n=admin`)).toEqual(["eth1"]);
    expect(await names("/api/dcim/interfaces/?vdc_identifier=1")).toEqual(["eth0"]);
    expect(await names(`/api/dcim/interfaces/?device_id=${id.sw1}&vdc_identifier__n=1`)).toEqual(["eth1"]);
    expect(await names("/api/dcim/devices/?has_virtual_device_context=true")).toEqual(["sw1", "sw2"]);
    expect(await names("/api/dcim/devices/?has_virtual_device_context=false")).toEqual(["sw3"]);
    expect(await names(`/api/dcim/virtual-device-contexts/?device_id=${id.sw2}`)).toEqual(["admin"]);
    expect(await names("/api/dcim/virtual-device-contexts/?device=sw1&status=planned")).toEqual(["prod"]);
    expect(await names(`/api/dcim/virtual-device-contexts/?interface_id=${id.eth1}`)).toEqual(["prod"]);
    expect(await names(`/api/dcim/virtual-device-contexts/?device_id=${id.sw1}&interface_id__n=${id.eth1}`)).toEqual(["admin"]);
    expect(await names("/api/dcim/virtual-device-contexts/?identifier__gte=2")).toEqual(["prod"]);
  });

  it("protect their device from deletion", async () => {
    const gone = await api.delete(`/api/dcim/devices/${id.sw2}/`);
    expect(gone.status, gone.text).toBe(409);
  });
});

describe("cable terminations", () => {
  it("list every cable end with its cable, end and endpoint, and filter like NetBox's", async () => {
    const list = await api.get(`/api/dcim/cable-terminations/?cable=${id.cable0}`);
    expect(list.status, list.text).toBe(200);
    expect(list.body.count).toBe(2);
    const [a, b] = list.body.results;
    expect(a).toMatchObject({
      cable: id.cable0,
      cable_end: "A",
      termination_type: "dcim.interface",
      termination_id: id.eth0,
      termination: { id: id.eth0, name: "eth0", device: { id: id.sw1 } },
    });
    expect(b).toMatchObject({ cable: id.cable0, cable_end: "B", termination_id: id.peer0 });
    expect(a.display).toBe(`Cable #${id.cable0} to eth0`);
    expect(typeof a.created).toBe("string");
    const one = await api.get(`/api/dcim/cable-terminations/${a.id}/`);
    expect(one.body).toMatchObject({ id: a.id, cable_end: "A" });
    expect(Object.keys((await api.get(`/api/dcim/cable-terminations/${a.id}/?brief=1`)).body).sort()).toEqual([
      "cable",
      "cable_end",
      "display",
      "id",
      "url",
    ]);
    expect(await names(`/api/dcim/cable-terminations/?cable__n=${id.cable0}`, "termination_id")).toEqual([id.eth1, id.peer1]);
    expect(await names(`/api/dcim/cable-terminations/?cable_end=B&termination_type=dcim.interface`, "termination_id")).toEqual([
      id.peer0,
      id.peer1,
    ]);
    expect(await names(`/api/dcim/cable-terminations/?termination_id=${id.peer1}`, "cable")).toEqual([id.cable1]);
    expect((await api.get("/api/dcim/cable-terminations/?termination_type__n=dcim.interface")).body.count).toBe(0);
  });

  it("are written only through their cable: writes here are 405", async () => {
    const post = await api.post("/api/dcim/cable-terminations/", {
      cable: id.cable0,
      cable_end: "A",
      termination_type: "dcim.interface",
      termination_id: id.eth1,
    });
    expect(post.status).toBe(405);
    const first = (await api.get(`/api/dcim/cable-terminations/?cable=${id.cable0}`)).body.results[0];
    expect((await api.delete(`/api/dcim/cable-terminations/${first.id}/`)).status).toBe(405);
  });

  it("go with their cable, and with their endpoint", async () => {
    const a = await iface(id.sw3, "tmp0");
    const b = await iface(id.sw3, "tmp1");
    const c = await cable(a, b);
    expect((await api.get(`/api/dcim/cable-terminations/?cable=${c}`)).body.count).toBe(2);
    expect((await api.delete(`/api/dcim/interfaces/${a}/`)).status).toBe(204);
    expect((await api.get(`/api/dcim/cable-terminations/?termination_id=${a}&termination_type=dcim.interface`)).body.count).toBe(0);
    expect((await api.get(`/api/dcim/cable-terminations/?cable=${c}`)).body.count).toBe(0);
  });
});

describe("connected device", () => {
  it("answers the device at the far end of a neighbour's interface, as NetBox does", async () => {
    const found = await api.get("/api/dcim/connected-device/?peer_device=sw2&peer_interface=eth0");
    expect(found.status, found.text).toBe(200);
    expect(found.body).toMatchObject({ id: id.sw1, name: "sw1", device_type: { slug: "switch" } });
  });

  it("is 404 for an unknown neighbour, an unknown or uncabled port, and 400 without both names", async () => {
    expect((await api.get("/api/dcim/connected-device/?peer_device=nope&peer_interface=eth0")).status).toBe(404);
    expect((await api.get("/api/dcim/connected-device/?peer_device=sw2&peer_interface=eth5")).status).toBe(404);
    await iface(id.sw3, "loose");
    expect((await api.get("/api/dcim/connected-device/?peer_device=sw3&peer_interface=loose")).status).toBe(404);
    const missing = await api.get("/api/dcim/connected-device/?peer_device=sw2");
    expect(missing).toMatchObject({ status: 400, body: { detail: 'Request must include "peer_device" and "peer_interface" filters.' } });
  });

  it("is listed at the dcim root and documented, and needs a token", async () => {
    expect((await api.get("/api/dcim/")).body["connected-device"]).toMatch(/\/api\/dcim\/connected-device\/$/);
    const doc = await api.get("/api/schema/?format=json");
    const get = doc.body.paths["/api/dcim/connected-device/"].get;
    expect(get.operationId).toBe("dcim_connected_device_list");
    expect(get.parameters.map((p: any) => [p.name, p.required])).toEqual([
      ["peer_device", true],
      ["peer_interface", true],
    ]);
    expect(doc.body.paths["/api/dcim/devices/connected-device/"]).toBeUndefined();
    expect((await api.get("/api/dcim/devices/connected-device/?peer_device=sw2&peer_interface=eth0")).status).toBe(404);
    expect((await api.get("/api/dcim/connected-device/?peer_device=sw2&peer_interface=eth0", { token: null })).status).toBe(403);
  });
});

describe("VLAN translation", () => {
  it("keeps policies with their rules nested, each VID once per policy", async () => {
    id.policy = await make(api, "/api/ipam/vlan-translation-policies/", { name: "Customer A", description: "edge" });
    id.rule1 = await make(api, "/api/ipam/vlan-translation-rules/", { policy: id.policy, local_vid: 100, remote_vid: 1100 });
    id.rule2 = await make(api, "/api/ipam/vlan-translation-rules/", { policy: id.policy, local_vid: 200, remote_vid: 1200 });
    const local = await api.post("/api/ipam/vlan-translation-rules/", { policy: id.policy, local_vid: 100, remote_vid: 1300 });
    expect(local.status, local.text).toBe(400);
    expect(JSON.stringify(local.body)).toContain("VLAN translation rule with this Policy and Local VLAN ID already exists.");
    const remote = await api.post("/api/ipam/vlan-translation-rules/", { policy: id.policy, local_vid: 300, remote_vid: 1200 });
    expect(JSON.stringify(remote.body)).toContain("VLAN translation rule with this Policy and Remote VLAN ID already exists.");
    const range = await api.post("/api/ipam/vlan-translation-rules/", { policy: id.policy, local_vid: 0, remote_vid: 5000 });
    expect(range.status).toBe(400);
    expect(Object.keys(range.body).sort()).toEqual(["local_vid", "remote_vid"]);

    const policy = (await api.get(`/api/ipam/vlan-translation-policies/${id.policy}/`)).body;
    expect(policy).toMatchObject({ name: "Customer A", description: "edge", display: "Customer A" });
    expect(policy.rules).toEqual([
      expect.objectContaining({ id: id.rule1, local_vid: 100, remote_vid: 1100, display: "100 -> 1100" }),
      expect.objectContaining({ id: id.rule2, local_vid: 200, remote_vid: 1200 }),
    ]);
    const rule = (await api.get(`/api/ipam/vlan-translation-rules/${id.rule1}/`)).body;
    expect(rule).toMatchObject({ policy: id.policy, local_vid: 100, remote_vid: 1100, description: "" });
    expect(await names(`/api/ipam/vlan-translation-rules/?policy_id=${id.policy}&local_vid__gte=150`, "local_vid")).toEqual([200]);
    expect(await names("/api/ipam/vlan-translation-rules/?policy=Customer A&remote_vid=1100", "local_vid")).toEqual([100]);
    expect(await names("/api/ipam/vlan-translation-policies/?q=customer")).toEqual(["Customer A"]);
  });

  it("applies a policy to device and VM interfaces, filtered by it", async () => {
    const set = await api.patch(`/api/dcim/interfaces/${id.eth1}/`, { vlan_translation_policy: id.policy });
    expect(set.status, set.text).toBe(200);
    expect(set.body.vlan_translation_policy).toMatchObject({ id: id.policy, name: "Customer A", description: "edge" });
    expect(await names(`/api/dcim/interfaces/?vlan_translation_policy_id=${id.policy}`)).toEqual(["eth1"]);
    expect(await names("/api/dcim/interfaces/?vlan_translation_policy=Customer A")).toEqual(["eth1"]);
    expect(await names(`/api/dcim/interfaces/?device_id=${id.sw1}&vlan_translation_policy_id__n=${id.policy}`)).toEqual(["eth0"]);
    const ctype = await make(api, "/api/virtualization/cluster-types/", { name: "KVM", slug: "kvm" });
    const cluster = await make(api, "/api/virtualization/clusters/", { name: "c1", type: ctype });
    const vm = await make(api, "/api/virtualization/virtual-machines/", { name: "vm1", cluster });
    id.vmif = await make(api, "/api/virtualization/interfaces/", { virtual_machine: vm, name: "ens3", vlan_translation_policy: id.policy });
    expect(await names(`/api/virtualization/interfaces/?vlan_translation_policy_id=${id.policy}`)).toEqual(["ens3"]);
    // A policy in use cannot be deleted (NetBox protects it).
    expect((await api.delete(`/api/ipam/vlan-translation-policies/${id.policy}/`)).status).toBe(409);
  });
});

describe("Q-in-Q", () => {
  it("gives interfaces a service VLAN in Q-in-Q mode only, dropped when the mode changes", async () => {
    id.svlan = await make(api, "/api/ipam/vlans/", { vid: 1000, name: "svc", qinq_role: "svlan" });
    id.plain = await make(api, "/api/ipam/vlans/", { vid: 30, name: "plain" });
    const wrongMode = await api.patch(`/api/dcim/interfaces/${id.eth0}/`, { mode: "access", qinq_svlan: id.svlan });
    expect(wrongMode.status, wrongMode.text).toBe(400);
    expect(wrongMode.body.qinq_svlan[0]).toContain("Q-in-Q mode");
    const notService = await api.patch(`/api/dcim/interfaces/${id.eth0}/`, { mode: "q-in-q", qinq_svlan: id.plain });
    expect(notService.status, notService.text).toBe(400);
    expect(notService.body.qinq_svlan[0]).toContain("plain (30)");
    const set = await api.patch(`/api/dcim/interfaces/${id.eth0}/`, { mode: "q-in-q", qinq_svlan: id.svlan });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({ mode: { value: "q-in-q" }, qinq_svlan: { id: id.svlan, vid: 1000, name: "svc" } });
    expect(await names(`/api/dcim/interfaces/?qinq_svlan_id=${id.svlan}`)).toEqual(["eth0"]);
    const vmSet = await api.patch(`/api/virtualization/interfaces/${id.vmif}/`, { mode: "q-in-q", qinq_svlan: id.svlan });
    expect(vmSet.status, vmSet.text).toBe(200);
    expect(vmSet.body.qinq_svlan).toMatchObject({ id: id.svlan });
    const left = await api.patch(`/api/dcim/interfaces/${id.eth0}/`, { mode: "access" });
    expect(left.status, left.text).toBe(200);
    expect(left.body.qinq_svlan).toBeNull();
  });

  it("holds NetBox's VLAN rules: only a customer VLAN names a service VLAN, and it must", async () => {
    const orphan = await api.post("/api/ipam/vlans/", { vid: 31, name: "cust", qinq_role: "cvlan" });
    expect(orphan).toMatchObject({ status: 400, body: { qinq_svlan: ["A Q-in-Q customer VLAN must be assigned to a service VLAN."] } });
    const notCustomer = await api.post("/api/ipam/vlans/", { vid: 32, name: "odd", qinq_svlan: id.svlan });
    expect(notCustomer).toMatchObject({
      status: 400,
      body: { qinq_svlan: ["Only Q-in-Q customer VLANs maybe assigned to a service VLAN."] },
    });
    const customer = await make(api, "/api/ipam/vlans/", { vid: 33, name: "cust", qinq_role: "cvlan", qinq_svlan: id.svlan });
    // The service VLAN named must be one (NetBox limits the choices to `svlan`s).
    const notService = await api.post("/api/ipam/vlans/", { vid: 34, name: "cust2", qinq_role: "cvlan", qinq_svlan: customer });
    expect(notService).toMatchObject({ status: 400, body: { qinq_svlan: [`VLAN instance with id ${customer} does not exist.`] } });
    expect(await names("/api/ipam/vlans/?qinq_svlan_vid=1000")).toEqual(["cust"]);
    expect(await names("/api/ipam/vlans/?qinq_svlan_vid__gte=999")).toEqual(["cust"]);
    expect((await api.get(`/api/ipam/vlans/?qinq_svlan_vid__n=1000&id=${customer}`)).body.count).toBe(0);
  });
});

describe("prefix counts of places", () => {
  it("count prefixes scoped to a region, site group or location, or to a place below it", async () => {
    const prefix = (prefix: string, scope_type: string, scope_id: number) =>
      make(api, "/api/ipam/prefixes/", { prefix, scope_type, scope_id });
    await prefix("10.1.0.0/16", "dcim.region", id.germany);
    await prefix("10.2.0.0/16", "dcim.site", id.ber);
    await prefix("10.3.0.0/16", "dcim.location", id.room);
    await prefix("10.4.0.0/16", "dcim.sitegroup", id.group);
    const count = async (path: string) => (await api.get(path)).body.prefix_count;
    expect(await count(`/api/dcim/regions/${id.europe}/`)).toBe(3);
    expect(await count(`/api/dcim/regions/${id.germany}/`)).toBe(3);
    expect(await count(`/api/dcim/site-groups/${id.group}/`)).toBe(3);
    expect(await count(`/api/dcim/locations/${id.floor}/`)).toBe(1);
    expect(await count(`/api/dcim/locations/${id.room}/`)).toBe(1);
    expect(await names("/api/dcim/regions/?prefix_count__gte=1")).toEqual(["Europe", "Germany"]);
  });
});

describe("derived filter lookups", () => {
  it("negate cable, bay and interface filters with __n", async () => {
    expect(await names(`/api/dcim/interfaces/?device_id=${id.sw1}&cable_id__n=${id.cable0}`)).toEqual(["eth1"]);
    expect(await names(`/api/dcim/interfaces/?cable_id=${id.cable1}`)).toEqual(["eth1", "eth9"]);
    const bad = await api.get("/api/dcim/interfaces/?cabled__n=true");
    expect(bad.status).toBe(400);
    const addr = await make(api, "/api/ipam/ip-addresses/", {
      address: "10.9.0.1/24",
      assigned_object_type: "dcim.interface",
      assigned_object_id: id.eth1,
    });
    expect(await names(`/api/ipam/ip-addresses/?interface_id=${id.eth1}`, "id")).toEqual([addr]);
    expect(await names(`/api/ipam/ip-addresses/?interface_id__n=${id.eth1}&parent=10.9.0.0/16`, "id")).toEqual([]);
    expect(await names(`/api/ipam/ip-addresses/?interface__n=eth0&parent=10.9.0.0/16`, "id")).toEqual([addr]);
    expect(await names(`/api/dcim/cables/?termination_a_type__n=dcim.interface`, "id")).toEqual([]);
  });

  it("give MAC addresses their text lookups on devices, interfaces, VM interfaces and VMs", async () => {
    await make(api, "/api/dcim/mac-addresses/", {
      mac_address: "00:11:22:aa:bb:cc",
      assigned_object_type: "dcim.interface",
      assigned_object_id: id.eth0,
    });
    await make(api, "/api/dcim/mac-addresses/", {
      mac_address: "00:11:22:aa:bb:dd",
      assigned_object_type: "virtualization.vminterface",
      assigned_object_id: id.vmif,
    });
    expect(await names("/api/dcim/devices/?mac_address=00-11-22-AA-BB-CC")).toEqual(["sw1"]);
    expect(await names("/api/dcim/devices/?mac_address__ic=aa:bb")).toEqual(["sw1"]);
    expect(await names("/api/dcim/devices/?mac_address__nic=aa:bb")).toEqual(["sw2", "sw3"]);
    expect(await names(`/api/dcim/interfaces/?mac_address__isw=00:11&device_id=${id.sw1}`)).toEqual(["eth0"]);
    expect(await names("/api/dcim/interfaces/?mac_address__iew=bb:cc")).toEqual(["eth0"]);
    expect(await names("/api/dcim/interfaces/?mac_address__ie=00:11:22:AA:BB:CC")).toEqual(["eth0"]);
    expect(await names(`/api/dcim/interfaces/?device_id=${id.sw1}&mac_address__n=00:11:22:AA:BB:CC`)).toEqual(["eth1"]);
    expect(await names("/api/virtualization/interfaces/?mac_address__ic=bb:dd")).toEqual(["ens3"]);
    expect(await names("/api/virtualization/virtual-machines/?mac_address__iew=BB:DD")).toEqual(["vm1"]);
    expect((await api.get("/api/dcim/devices/?mac_address__empty=true")).status).toBe(400);
  });

  it("compare computed numbers and dates (available power, member count, date added)", async () => {
    const site = id.ber;
    const panel = await make(api, "/api/dcim/power-panels/", { site, name: "P1" });
    await make(api, "/api/dcim/power-feeds/", { power_panel: panel, name: "F1", voltage: 230, amperage: 16, max_utilization: 80 });
    await make(api, "/api/dcim/power-feeds/", { power_panel: panel, name: "F2", voltage: 120, amperage: 20, max_utilization: 80 });
    expect(await names("/api/dcim/power-feeds/?available_power__gte=2000")).toEqual(["F1"]);
    expect(await names("/api/dcim/power-feeds/?available_power=1920")).toEqual(["F2"]);
    expect(await names("/api/dcim/power-feeds/?available_power__n=1920")).toEqual(["F1"]);
    expect((await api.get("/api/dcim/power-feeds/?available_power__gt=lots")).status).toBe(400);
    const vc = await make(api, "/api/dcim/virtual-chassis/", { name: "stack" });
    expect((await api.patch(`/api/dcim/devices/${id.sw3}/`, { virtual_chassis: vc, vc_position: 1 })).status).toBe(200);
    await make(api, "/api/dcim/virtual-chassis/", { name: "empty" });
    expect(await names("/api/dcim/virtual-chassis/?member_count__gte=1")).toEqual(["stack"]);
    expect(await names("/api/dcim/virtual-chassis/?member_count__lt=1")).toEqual(["empty"]);
    const rir = await make(api, "/api/ipam/rirs/", { name: "RIPE", slug: "ripe" });
    await make(api, "/api/ipam/aggregates/", { prefix: "192.0.2.0/24", rir, date_added: "2020-05-01" });
    await make(api, "/api/ipam/aggregates/", { prefix: "198.51.100.0/24", rir, date_added: "2024-01-01" });
    expect(await names("/api/ipam/aggregates/?date_added__gt=2021-01-01", "prefix")).toEqual(["198.51.100.0/24"]);
    expect(await names("/api/ipam/aggregates/?date_added__lte=2020-05-01", "prefix")).toEqual(["192.0.2.0/24"]);
  });

  it("find FHRP groups by a related address, and filter assignments by interface id as a number", async () => {
    const group = await make(api, "/api/ipam/fhrp-groups/", { protocol: "vrrp2", group_id: 7 });
    await make(api, "/api/ipam/fhrp-groups/", { protocol: "vrrp2", group_id: 8 });
    await make(api, "/api/ipam/ip-addresses/", {
      address: "10.50.0.254/24",
      assigned_object_type: "ipam.fhrpgroup",
      assigned_object_id: group,
    });
    const member = await make(api, "/api/ipam/ip-addresses/", { address: "10.50.0.2/24" });
    const outside = await make(api, "/api/ipam/ip-addresses/", { address: "10.60.0.2/24" });
    const narrow = await make(api, "/api/ipam/ip-addresses/", { address: "10.50.0.1/30" });
    expect(await names(`/api/ipam/fhrp-groups/?related_ip=${member}`, "group_id")).toEqual([7]);
    expect(await names(`/api/ipam/fhrp-groups/?related_ip=${outside}`, "group_id")).toEqual([]);
    expect(await names(`/api/ipam/fhrp-groups/?related_ip=${narrow}`, "group_id")).toEqual([]);
    await make(api, "/api/ipam/fhrp-group-assignments/", { group, interface_type: "dcim.interface", interface_id: id.eth1, priority: 10 });
    expect(await names(`/api/ipam/fhrp-group-assignments/?interface_id__gte=${id.eth1}`, "priority")).toEqual([10]);
    expect(await names(`/api/ipam/fhrp-group-assignments/?interface_id__n=${id.eth1}`, "priority")).toEqual([]);
  });

  it("negate clusters' place filters and module bays' module filters", async () => {
    const ctype = await make(api, "/api/virtualization/cluster-types/", { name: "Xen", slug: "xen" });
    await make(api, "/api/virtualization/clusters/", { name: "placed", type: ctype, scope_type: "dcim.site", scope_id: id.ber });
    expect(await names("/api/virtualization/clusters/?region=europe")).toEqual(["placed"]);
    expect(await names("/api/virtualization/clusters/?region__n=europe")).toEqual(["c1"]);
    expect(await names(`/api/virtualization/clusters/?site_id__n=${id.ber}`)).toEqual(["c1"]);
    const mfr = await make(api, "/api/dcim/manufacturers/", { name: "Mod", slug: "mod" });
    const moduleType = await make(api, "/api/dcim/module-types/", { manufacturer: mfr, model: "Card" });
    const bay = await make(api, "/api/dcim/module-bays/", { device: id.sw3, name: "slot1" });
    await make(api, "/api/dcim/module-bays/", { device: id.sw3, name: "slot2" });
    const mod = await make(api, "/api/dcim/modules/", { device: id.sw3, module_bay: bay, module_type: moduleType });
    const sub = await make(api, "/api/dcim/module-bays/", { device: id.sw3, module: mod, name: "sub1" });
    expect(await names(`/api/dcim/module-bays/?parent_id=${bay}`, "id")).toEqual([sub]);
    expect(await names(`/api/dcim/module-bays/?device_id=${id.sw3}&installed_module_id__n=${mod}`)).toEqual(["slot2", "sub1"]);
  });
});
