/**
 * Answers shaped and worded as NetBox 4.2 gives them, where the replay of its recordings found
 * ours differing: display texts, plain values, errors under NetBox's keys, and IPAM rules
 * (a prefix marked utilized, `q` finding the prefixes that hold an address).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "./support/harness.ts";
import { make } from "./contract/fixtures.ts";

let api: Harness;

beforeAll(async () => {
  api = await createHarness();
});
afterAll(() => api.close());

describe("display texts", () => {
  it("IP ranges name the groups both ends share once", async () => {
    const near = await api.post("/api/ipam/ip-ranges/", { start_address: "10.0.7.200/24", end_address: "10.0.7.210/24" });
    expect(near.body.display).toBe("10.0.7.200-210/24");
    const wide = await api.post("/api/ipam/ip-ranges/", { start_address: "10.1.0.0/22", end_address: "10.1.3.255/22" });
    expect(wide.body.display).toBe("10.1.0.0-3.255/22");
    expect((await api.get(`/api/ipam/ip-ranges/${wide.body.id}/?brief=1`)).body.display).toBe("10.1.0.0-3.255/22");
    const overlap = await api.post("/api/ipam/ip-ranges/", { start_address: "10.0.7.205/24", end_address: "10.0.7.220/24" });
    expect(overlap.body.__all__).toEqual(["Defined addresses overlap with range 10.0.7.200-210/24 in VRF None"]);
    const backwards = await api.post("/api/ipam/ip-ranges/", { start_address: "10.0.9.20/24", end_address: "10.0.9.10/24" });
    expect(backwards.body).toEqual({ end_address: ["Ending address must be greater than the starting address (10.0.9.20/24)"] });
  });

  it("users show their full name, ASN ranges their bounds, FHRP groups NetBox's words", async () => {
    const alice = await api.post("/api/users/users/", {
      username: "alice",
      first_name: "Alice",
      last_name: "Ops",
      password: "Correct-horse-1",
    });
    expect(alice.body.display).toBe("alice (Alice Ops)");
    const bob = await api.post("/api/users/users/", { username: "bob", password: "Correct-horse-1" });
    expect(bob.body.display).toBe("bob");
    const rir = await make(api, "/api/ipam/rirs/", { name: "RIPE", slug: "ripe" });
    const range = await api.post("/api/ipam/asn-ranges/", { name: "Private", slug: "private", rir, start: 64512, end: 64520 });
    expect(range.body.display).toBe("Private (64512-64520)");
    const group = await api.post("/api/ipam/fhrp-groups/", { name: "gw", protocol: "vrrp2", group_id: 10, auth_type: "plaintext" });
    expect(group.body).toMatchObject({ display: "gw VRRPv2: 10", protocol: "vrrp2", auth_type: "plaintext" });
    const unnamed = await api.post("/api/ipam/fhrp-groups/", { protocol: "hsrp", group_id: 3 });
    expect(unnamed.body.display).toBe("HSRP: 3");
  });
});

describe("errors under NetBox's keys", () => {
  it("list fields name the index of the bad entry", async () => {
    const device = await make(api, "/api/dcim/devices/", {
      name: "svc-host",
      site: await make(api, "/api/dcim/sites/", { name: "Svc", slug: "svc" }),
      role: await make(api, "/api/dcim/device-roles/", { name: "Svc", slug: "svc" }),
      device_type: await make(api, "/api/dcim/device-types/", {
        manufacturer: await make(api, "/api/dcim/manufacturers/", { name: "Svc", slug: "svc" }),
        model: "Svc",
        slug: "svc",
      }),
    });
    const service = await api.post("/api/ipam/services/", { device, name: "web", protocol: "tcp", ports: [80, 70000, 0] });
    expect(service.body).toEqual({
      ports: { "1": ["Ensure this value is less than or equal to 65535."], "2": ["Ensure this value is greater than or equal to 1."] },
    });
  });

  it("a duplicate names the field by its verbose name; passwords fail as the whole form", async () => {
    const rir = await make(api, "/api/ipam/rirs/", { name: "ARIN", slug: "arin" });
    await make(api, "/api/ipam/asns/", { asn: 65001, rir });
    expect((await api.post("/api/ipam/asns/", { asn: 65001, rir })).body).toEqual({ asn: ["ASN with this ASN already exists."] });
    await make(api, "/api/users/users/", { username: "carol", password: "Correct-horse-1" });
    const again = await api.post("/api/users/users/", { username: "carol", password: "Correct-horse-1" });
    expect(again.body).toEqual({ username: ["A user with that username already exists."] });
    const weak = await api.post("/api/users/users/", { username: "dave", password: "short" });
    expect(weak.body).toEqual({
      non_field_errors: ["This password is too short. It must contain at least 12 characters.", "Password must have at least one numeral."],
    });
    expect((await api.post("/api/users/tokens/", { key: "abc" })).body).toEqual({ key: ["Ensure this field has at least 40 characters."] });
  });
});

describe("IPAM as NetBox rules it", () => {
  it("a prefix marked utilized offers no address, and refuses to allocate one", async () => {
    const full = await make(api, "/api/ipam/prefixes/", { prefix: "192.0.2.0/28", mark_utilized: true });
    expect((await api.get(`/api/ipam/prefixes/${full}/available-ips/`)).body).toEqual([]);
    expect((await api.post(`/api/ipam/prefixes/${full}/available-ips/`, {})).status).toBe(409);
    await api.patch(`/api/ipam/prefixes/${full}/`, { mark_utilized: false });
    expect((await api.get(`/api/ipam/prefixes/${full}/available-ips/?limit=2`)).body).toHaveLength(2);
  });

  it("q finds the prefixes holding the address searched for", async () => {
    const outer = await make(api, "/api/ipam/prefixes/", { prefix: "198.51.100.0/24" });
    const inner = await make(api, "/api/ipam/prefixes/", { prefix: "198.51.100.64/26" });
    await make(api, "/api/ipam/prefixes/", { prefix: "198.51.100.128/26" });
    const found = await api.get("/api/ipam/prefixes/?q=198.51.100.70");
    expect(found.body.results.map((p: any) => p.id).sort()).toEqual([outer, inner].sort());
    const text = await api.get("/api/ipam/prefixes/?q=100.12");
    expect(text.body.results.map((p: any) => p.prefix)).toEqual(["198.51.100.128/26"]);
  });

  it("a VLAN group's utilization is the share of its VIDs in use, in percent", async () => {
    const group = await make(api, "/api/ipam/vlan-groups/", { name: "Pod", slug: "pod", vid_ranges: [[100, 109]] });
    expect((await api.get(`/api/ipam/vlan-groups/${group}/`)).body.utilization).toBe("0.0");
    await make(api, "/api/ipam/vlans/", { vid: 100, name: "a", group });
    expect((await api.get(`/api/ipam/vlan-groups/${group}/`)).body.utilization).toBe("10.0");
  });
});

describe("ordering as NetBox's PostgreSQL orders", () => {
  it("puts empty values last ascending and first descending, unless the model says otherwise", async () => {
    const site = await make(api, "/api/dcim/sites/", { name: "Order", slug: "order" });
    const global = await make(api, "/api/ipam/vlans/", { vid: 5, name: "global-5" });
    const local = await make(api, "/api/ipam/vlans/", { vid: 3000, name: "local-3000", site });
    const order = async (query: string) => (await api.get(`/api/ipam/vlans/?vid=5&vid=3000${query}`)).body.results.map((v: any) => v.id);
    expect(await order("")).toEqual([local, global]);
    expect(await order("&ordering=-site")).toEqual([global, local]);
    // Prefixes list the global table first (NetBox orders their VRF with empty values first).
    const vrf = await make(api, "/api/ipam/vrfs/", { name: "Blue" });
    const inVrf = await make(api, "/api/ipam/prefixes/", { prefix: "203.0.113.0/25", vrf });
    const inGlobal = await make(api, "/api/ipam/prefixes/", { prefix: "203.0.113.128/25" });
    const prefixes = (await api.get("/api/ipam/prefixes/?q=203.0.113")).body.results.map((p: any) => p.id);
    expect(prefixes).toEqual([inGlobal, inVrf]);
  });
});

describe("a prefix's site", () => {
  it("is its scope's site, the site scoped or the location's, and a site counts them", async () => {
    const site = await make(api, "/api/dcim/sites/", { name: "Scoped", slug: "scoped" });
    const location = await make(api, "/api/dcim/locations/", { name: "Cage", slug: "cage", site });
    const bySite = await api.post("/api/ipam/prefixes/", { prefix: "100.64.0.0/24", scope_type: "dcim.site", scope_id: site });
    const byLocation = await api.post("/api/ipam/prefixes/", { prefix: "100.64.1.0/24", scope_type: "dcim.location", scope_id: location });
    const bySiteAlone = await api.post("/api/ipam/prefixes/", { prefix: "100.64.2.0/24", site });
    expect([bySite, byLocation, bySiteAlone].map((r) => [r.body.site?.id, r.body.scope_type])).toEqual([
      [site, "dcim.site"],
      [site, "dcim.location"],
      [site, "dcim.site"],
    ]);
    expect((await api.get(`/api/dcim/sites/${site}/`)).body.prefix_count).toBe(3);
    const unscoped = await api.patch(`/api/ipam/prefixes/${bySite.body.id}/`, { scope_type: null, scope_id: null });
    expect(unscoped.body.site).toBeNull();
    expect((await api.get(`/api/dcim/sites/${site}/`)).body.prefix_count).toBe(2);
  });
});
