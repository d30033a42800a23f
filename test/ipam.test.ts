import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "./support/harness.ts";
import { fixtureDevice } from "./contract/shared-inventory.ts";
import { make } from "./contract/fixtures.ts";

const ids = (reply: { body: any }) => reply.body.results.map((o: any) => o.id);

describe("IP addresses and prefixes: family, host bits, parsing", () => {
  let api: Harness;
  beforeAll(async () => (api = await createHarness()));
  afterAll(() => api.close());

  it("derives the family, keeps an address's host bits and reads a bare address as a host route", async () => {
    const v4 = await api.post("/api/ipam/ip-addresses/", { address: "192.0.2.5/24" });
    expect(v4.status, v4.text).toBe(201);
    expect([v4.body.family, v4.body.address]).toEqual([{ value: 4, label: "IPv4" }, "192.0.2.5/24"]);
    const bare = await api.post("/api/ipam/ip-addresses/", { address: "192.0.2.6" });
    expect(bare.body.address).toBe("192.0.2.6/32");
    const v6 = await api.post("/api/ipam/ip-addresses/", { address: "2001:DB8:0:0::0001/64" });
    expect([v6.body.family.value, v6.body.address]).toEqual([6, "2001:db8::1/64"]);
    const brief = await api.get(`/api/ipam/ip-addresses/${v6.body.id}/?brief=1`);
    expect(brief.body).toEqual({
      id: v6.body.id,
      url: v6.body.url,
      display: "2001:db8::1/64",
      family: 6,
      address: "2001:db8::1/64",
      description: "",
    });
  });

  it("refuses a prefix with host bits, naming the network meant, and /0 masks and nonsense", async () => {
    const bad = await api.post("/api/ipam/prefixes/", { prefix: "10.0.0.5/24" });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ prefix: ["10.0.0.5/24 is not a valid prefix. Did you mean 10.0.0.0/24?"] });
    expect((await api.post("/api/ipam/prefixes/", { prefix: "0.0.0.0/0" })).body).toEqual({
      prefix: ["Cannot create prefix with /0 mask."],
    });
    expect((await api.post("/api/ipam/ip-addresses/", { address: "10.0.0.256/24" })).body).toEqual({
      address: ["Invalid IP address format: 10.0.0.256/24"],
    });
    expect((await api.post("/api/ipam/ip-addresses/", { address: "010.0.0.1/24" })).status).toBe(400);
    const ok = await api.post("/api/ipam/prefixes/", { prefix: "2001:db8:1::/48" });
    expect([ok.status, ok.body.family.value, ok.body.prefix]).toEqual([201, 6, "2001:db8:1::/48"]);
  });

  it("refuses SLAAC status on IPv4, and a network ID or broadcast address on an interface", async () => {
    expect((await api.post("/api/ipam/ip-addresses/", { address: "198.51.100.1/24", status: "slaac" })).body).toEqual({
      status: ["Only IPv6 addresses can be assigned SLAAC status"],
    });
    const device = await fixtureDevice(api, "hostbits");
    const iface = await make(api, "/api/dcim/interfaces/", { device, name: "eth0", type: "1000base-t" });
    const on = (address: string) =>
      api.post("/api/ipam/ip-addresses/", { address, assigned_object_type: "dcim.interface", assigned_object_id: iface });
    expect((await on("198.51.100.0/24")).body).toEqual({
      __all__: ["198.51.100.0 is a network ID, which may not be assigned to an interface."],
    });
    expect((await on("198.51.100.255/24")).body).toEqual({
      __all__: ["198.51.100.255 is a broadcast address, which may not be assigned to an interface."],
    });
    expect((await on("198.51.100.0/31")).status).toBe(201);
    expect((await api.post("/api/ipam/ip-addresses/", { address: "198.51.101.0/24" })).status).toBe(201);
  });
});

describe("duplicates", () => {
  it("are refused in the global table and in a VRF that enforces uniqueness, host compared without mask", async () => {
    const api = await createHarness();
    try {
      expect((await api.post("/api/ipam/ip-addresses/", { address: "10.1.0.1/24" })).status).toBe(201);
      const dup = await api.post("/api/ipam/ip-addresses/", { address: "10.1.0.1/16" });
      expect([dup.status, dup.body]).toEqual([400, { address: ["Duplicate IP address found in global table: 10.1.0.1/24"] }]);
      const strict = await make(api, "/api/ipam/vrfs/", { name: "strict" });
      const loose = await make(api, "/api/ipam/vrfs/", { name: "loose", enforce_unique: false });
      expect((await api.post("/api/ipam/ip-addresses/", { address: "10.1.0.1/24", vrf: strict })).status).toBe(201);
      expect((await api.post("/api/ipam/ip-addresses/", { address: "10.1.0.1/24", vrf: strict })).body).toEqual({
        address: ["Duplicate IP address found in VRF strict: 10.1.0.1/24"],
      });
      expect(
        (
          await api.post("/api/ipam/ip-addresses/", [
            { address: "10.1.0.1/24", vrf: loose },
            { address: "10.1.0.1/24", vrf: loose },
          ])
        ).status,
      ).toBe(201);
      // Addresses with a shared role (VIP, VRRP, ...) may repeat.
      expect(
        (
          await api.post("/api/ipam/ip-addresses/", [
            { address: "10.1.0.9/24", role: "vip" },
            { address: "10.1.0.9/24", role: "vip" },
          ])
        ).status,
      ).toBe(201);
      // The same within one request.
      const twice = await api.post("/api/ipam/ip-addresses/", [{ address: "10.1.0.7/24" }, { address: "10.1.0.7/24" }]);
      expect(twice.status).toBe(400);
      expect(twice.body[0]).toEqual({});
      expect((await api.post("/api/ipam/prefixes/", { prefix: "10.1.0.0/24" })).status).toBe(201);
      expect((await api.post("/api/ipam/prefixes/", { prefix: "10.1.0.0/24" })).body).toEqual({
        prefix: ["Duplicate prefix found in global table: 10.1.0.0/24"],
      });
      // Moving an address onto a taken one is a duplicate too; the address itself is not.
      const other = await api.post("/api/ipam/ip-addresses/", { address: "10.1.0.2/24" });
      expect((await api.patch(`/api/ipam/ip-addresses/${other.body.id}/`, { address: "10.1.0.1/24" })).status).toBe(400);
      expect((await api.patch(`/api/ipam/ip-addresses/${other.body.id}/`, { address: "10.1.0.2/25" })).status).toBe(200);
    } finally {
      api.close();
    }
  });

  it("are allowed in the global table when ENFORCE_GLOBAL_UNIQUE is off", async () => {
    const api = await createHarness({ ENFORCE_GLOBAL_UNIQUE: "false" });
    try {
      expect((await api.post("/api/ipam/prefixes/", [{ prefix: "10.2.0.0/24" }, { prefix: "10.2.0.0/24" }])).status).toBe(201);
      expect((await api.post("/api/ipam/ip-addresses/", [{ address: "10.2.0.1/24" }, { address: "10.2.0.1/24" }])).status).toBe(201);
    } finally {
      api.close();
    }
  });
});

describe("the prefix hierarchy and range filters", () => {
  let api: Harness;
  const p: Record<string, number> = {};
  beforeAll(async () => {
    api = await createHarness();
    for (const prefix of ["10.0.0.0/8", "10.1.0.0/16", "10.1.1.0/24", "10.1.2.0/24", "10.2.0.0/16", "2001:db8::/32"]) {
      p[prefix] = await make(api, "/api/ipam/prefixes/", { prefix, status: prefix.endsWith("/8") ? "container" : "active" });
    }
    p.vrf = await make(api, "/api/ipam/vrfs/", { name: "blue", rd: "65000:1" });
    p.inVrf = await make(api, "/api/ipam/prefixes/", { prefix: "10.1.1.0/24", vrf: p.vrf });
  });
  afterAll(() => api.close());

  const counts = async (prefix: string) => {
    const one = (await api.get(`/api/ipam/prefixes/${p[prefix]}/`)).body;
    return [one._depth, one.children];
  };

  it("keeps _depth and children current through creates, moves and deletes, per VRF", async () => {
    expect(await counts("10.0.0.0/8")).toEqual([0, 4]);
    expect(await counts("10.1.0.0/16")).toEqual([1, 2]);
    expect(await counts("10.1.1.0/24")).toEqual([2, 0]);
    expect((await api.get(`/api/ipam/prefixes/${p.inVrf}/`)).body._depth).toBe(0);
    // A prefix inserted in the middle deepens what it covers.
    const mid = await make(api, "/api/ipam/prefixes/", { prefix: "10.1.0.0/20" });
    expect(await counts("10.1.1.0/24")).toEqual([3, 0]);
    expect(await counts("10.0.0.0/8")).toEqual([0, 5]);
    // Moved elsewhere, it leaves them as they were.
    expect((await api.patch(`/api/ipam/prefixes/${mid}/`, { prefix: "10.3.0.0/20" })).status).toBe(200);
    expect(await counts("10.1.1.0/24")).toEqual([2, 0]);
    expect(await counts("10.1.0.0/16")).toEqual([1, 2]);
    // Deleted, everything below moves up.
    expect((await api.delete(`/api/ipam/prefixes/${p["10.1.0.0/16"]}/`)).status).toBe(204);
    expect(await counts("10.1.1.0/24")).toEqual([1, 0]);
    expect(await counts("10.0.0.0/8")).toEqual([0, 4]);
    p["10.1.0.0/16"] = await make(api, "/api/ipam/prefixes/", { prefix: "10.1.0.0/16" });
    await api.delete(`/api/ipam/prefixes/${mid}/`);
    expect(await counts("10.1.0.0/16")).toEqual([1, 2]);
  });

  it("filters by within, within_include, contains, mask length, family, prefix and VRF", async () => {
    const q = async (query: string) => ids(await api.get(`/api/ipam/prefixes/?${query}&limit=0`)).sort();
    expect(await q("within=10.1.0.0/16")).toEqual([p["10.1.1.0/24"], p["10.1.2.0/24"], p.inVrf].sort());
    expect(await q("within=10.1.0.0/16&vrf_id=null")).toEqual([p["10.1.1.0/24"], p["10.1.2.0/24"]].sort());
    expect(await q("within_include=10.1.0.0/16&vrf_id=null")).toEqual([p["10.1.0.0/16"], p["10.1.1.0/24"], p["10.1.2.0/24"]].sort());
    expect(await q("contains=10.1.1.77&vrf_id=null")).toEqual([p["10.0.0.0/8"], p["10.1.0.0/16"], p["10.1.1.0/24"]].sort());
    expect(await q("contains=10.1.0.0/23&vrf_id=null")).toEqual([p["10.0.0.0/8"], p["10.1.0.0/16"]].sort());
    expect(await q("mask_length=16")).toEqual([p["10.1.0.0/16"], p["10.2.0.0/16"]].sort());
    expect(await q("mask_length__gte=24&family=4")).toEqual([p["10.1.1.0/24"], p["10.1.2.0/24"], p.inVrf].sort());
    expect(await q("mask_length__lte=16&family=4")).toEqual([p["10.0.0.0/8"], p["10.1.0.0/16"], p["10.2.0.0/16"]].sort());
    expect(await q("family=6")).toEqual([p["2001:db8::/32"]]);
    expect(await q("prefix=10.1.1.0/24")).toEqual([p["10.1.1.0/24"], p.inVrf].sort());
    expect(await q("vrf=65000:1")).toEqual([p.inVrf]);
    expect(await q("depth=2")).toEqual([p["10.1.1.0/24"], p["10.1.2.0/24"]].sort());
    expect(await q("within=not-a-prefix")).toEqual([]);
  });

  it("orders prefixes by VRF (global first), then numerically, not as text", async () => {
    const list = (await api.get("/api/ipam/prefixes/?limit=0")).body.results.map((o: any) => o.prefix);
    expect(list).toEqual(["10.0.0.0/8", "10.1.0.0/16", "10.1.1.0/24", "10.1.2.0/24", "10.2.0.0/16", "2001:db8::/32", "10.1.1.0/24"]);
  });

  it("filters addresses by parent, address, mask length and assignment", async () => {
    const device = await fixtureDevice(api, "filters");
    const iface = await make(api, "/api/dcim/interfaces/", { device, name: "eth1", type: "1000base-t" });
    const a = await make(api, "/api/ipam/ip-addresses/", {
      address: "10.1.1.10/24",
      assigned_object_type: "dcim.interface",
      assigned_object_id: iface,
    });
    const b = await make(api, "/api/ipam/ip-addresses/", { address: "10.1.2.10/24" });
    const c = await make(api, "/api/ipam/ip-addresses/", { address: "10.9.0.1/16" });
    const q = async (query: string) => ids(await api.get(`/api/ipam/ip-addresses/?${query}&limit=0`)).sort();
    expect(await q("parent=10.1.0.0/16")).toEqual([a, b]);
    expect(await q("parent=10.1.1.0/24&parent=10.9.0.0/16")).toEqual([a, c]);
    expect(await q("parent=garbage")).toEqual([]);
    expect(await q("address=10.1.1.10")).toEqual([a]);
    expect(await q("address=10.1.1.10/25")).toEqual([]);
    expect(await q("mask_length=16")).toEqual([c]);
    expect(await q(`interface_id=${iface}`)).toEqual([a]);
    expect(await q(`device_id=${device}`)).toEqual([a]);
    expect(await q("device=dev-filters")).toEqual([a]);
    expect(await q("assigned_to_interface=true")).toEqual([a]);
    expect(await q("assigned_to_interface=false")).toEqual([b, c]);
    expect((await api.get(`/api/dcim/interfaces/${iface}/`)).body.count_ipaddresses).toBe(1);
  });
});

describe("VLANs", () => {
  let api: Harness;
  beforeAll(async () => (api = await createHarness()));
  afterAll(() => api.close());

  it("read status as an integer with its label and take it written either way", async () => {
    const one = await api.post("/api/ipam/vlans/", { vid: 10, name: "users", status: "reserved" });
    expect(one.body.status).toEqual({ value: 2, label: "Reserved" });
    const two = await api.post("/api/ipam/vlans/", { vid: 20, name: "voice", status: 1 });
    expect(two.body.status).toEqual({ value: 1, label: "Active" });
    expect((await api.post("/api/ipam/vlans/", { vid: 30, name: "video" })).body.status).toEqual({ value: 1, label: "Active" });
    expect((await api.patch(`/api/ipam/vlans/${one.body.id}/`, { status: "deprecated" })).body.status).toEqual({
      value: 3,
      label: "Deprecated",
    });
    expect((await api.post("/api/ipam/vlans/", { vid: 40, name: "bad", status: "sleeping" })).body).toEqual({
      status: ["sleeping is not a valid choice."],
    });
    expect(ids(await api.get("/api/ipam/vlans/?status=active")).sort()).toEqual(ids(await api.get("/api/ipam/vlans/?status=1")).sort());
    expect(ids(await api.get("/api/ipam/vlans/?status=deprecated"))).toEqual([one.body.id]);
    expect(one.body.display_name).toBe("users (10)");
  });

  it("keep a group's VIDs within its ranges and unique in it; filter by group and vid", async () => {
    const group = await make(api, "/api/ipam/vlan-groups/", { name: "dc", slug: "dc", vid_ranges: [[100, 199]] });
    expect((await api.post("/api/ipam/vlans/", { vid: 5, name: "low", group })).body).toEqual({
      vid: ["VID must be in ranges 100-199 for VLANs in group dc"],
    });
    const ok = await make(api, "/api/ipam/vlans/", { vid: 150, name: "mid", group });
    expect((await api.post("/api/ipam/vlans/", { vid: 150, name: "again", group })).body).toEqual({
      __all__: ["VLAN with this Group and VLAN ID already exists."],
    });
    expect(ids(await api.get(`/api/ipam/vlans/?group_id=${group}`))).toEqual([ok]);
    expect(ids(await api.get("/api/ipam/vlans/?vid__gte=100&vid__lte=199"))).toEqual([ok]);
  });
});

describe("interfaces' 802.1Q modes and devices' primary addresses", () => {
  let api: Harness;
  let device: number;
  let iface: number;
  beforeAll(async () => {
    api = await createHarness();
    device = await fixtureDevice(api, "modes");
    iface = await make(api, "/api/dcim/interfaces/", { device, name: "ge-0/0/0", type: "1000base-t" });
  });
  afterAll(() => api.close());

  it("allow tagged VLANs only in tagged mode, and only VLANs of the device's site or global ones", async () => {
    const global = await make(api, "/api/ipam/vlans/", { vid: 100, name: "global" });
    const elsewhere = await make(api, "/api/dcim/sites/", { name: "Elsewhere", slug: "elsewhere" });
    const foreign = await make(api, "/api/ipam/vlans/", { vid: 200, name: "foreign", site: elsewhere });
    const access = await api.patch(`/api/dcim/interfaces/${iface}/`, { mode: "access", tagged_vlans: [global] });
    expect(access.status).toBe(400);
    expect(Object.keys(access.body)).toEqual(["tagged_vlans"]);
    const wrongSite = await api.patch(`/api/dcim/interfaces/${iface}/`, { mode: "tagged", tagged_vlans: [foreign] });
    expect(wrongSite.body).toEqual({
      tagged_vlans: ["VLAN foreign (200) must belong to the same site as the interface's parent device, or it must be global."],
    });
    const tagged = await api.patch(`/api/dcim/interfaces/${iface}/`, { mode: "tagged", untagged_vlan: global, tagged_vlans: [global] });
    expect(tagged.status, tagged.text).toBe(200);
    expect(tagged.body.tagged_vlans.map((v: any) => v.id)).toEqual([global]);
    expect(tagged.body.untagged_vlan.id).toBe(global);
    // Leaving tagged mode drops the tagged VLANs; leaving 802.1Q drops the untagged one.
    expect((await api.patch(`/api/dcim/interfaces/${iface}/`, { mode: "access" })).body.tagged_vlans).toEqual([]);
    const none = await api.patch(`/api/dcim/interfaces/${iface}/`, { mode: null });
    expect([none.body.mode, none.body.untagged_vlan]).toEqual([null, null]);
    expect(ids(await api.get(`/api/ipam/vlans/?available_on_device=${device}`))).toEqual([global]);
  });

  it("take a primary address only from the device's own interfaces, of the right family", async () => {
    const v4 = await make(api, "/api/ipam/ip-addresses/", {
      address: "192.0.2.1/24",
      assigned_object_type: "dcim.interface",
      assigned_object_id: iface,
    });
    const loose = await make(api, "/api/ipam/ip-addresses/", { address: "192.0.2.2/24" });
    const v6 = await make(api, "/api/ipam/ip-addresses/", {
      address: "2001:db8::1/64",
      assigned_object_type: "dcim.interface",
      assigned_object_id: iface,
    });
    expect((await api.patch(`/api/dcim/devices/${device}/`, { primary_ip4: loose })).body).toEqual({
      primary_ip4: ["The specified IP address (192.0.2.2/24) is not assigned to this device."],
    });
    expect((await api.patch(`/api/dcim/devices/${device}/`, { primary_ip4: v6 })).body).toEqual({
      primary_ip4: ["2001:db8::1/64 is not an IPv4 address."],
    });
    const ok = await api.patch(`/api/dcim/devices/${device}/`, { primary_ip4: v4, primary_ip6: v6, oob_ip: v4 });
    expect(ok.status, ok.text).toBe(200);
    expect([ok.body.primary_ip4.address, ok.body.primary_ip6.address, ok.body.oob_ip.id, ok.body.primary_ip.id]).toEqual([
      "192.0.2.1/24",
      "2001:db8::1/64",
      v4,
      v6,
    ]);
    // Deleting the address clears the device's reference to it.
    expect((await api.delete(`/api/ipam/ip-addresses/${v6}/`)).status).toBe(204);
    expect((await api.get(`/api/dcim/devices/${device}/`)).body.primary_ip6).toBeNull();
  });
});
