import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, ORIGIN, type Harness } from "./support/harness.ts";
import { make } from "./contract/fixtures.ts";
import { fixtureDevice } from "./contract/shared-inventory.ts";

let api: Harness;
const ids: Record<string, number> = {};
const groups = "/api/wireless/wireless-lan-groups/";
const lans = "/api/wireless/wireless-lans/";
const links = "/api/wireless/wireless-links/";
const interfaces = "/api/dcim/interfaces/";
const vcs = "/api/circuits/virtual-circuits/";
const terminations = "/api/circuits/virtual-circuit-terminations/";

/** The sorted values of `key` in a whole list filtered by `query`. */
const listed = async (path: string, query: string, key = "id") => {
  const reply = await api.get(`${path}?${query}&limit=0`);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.results.map((o: any) => o[key]).sort();
};

beforeAll(async () => {
  api = await createHarness();
  ids.device = await fixtureDevice(api, "ap");
  ids.eu = await make(api, "/api/dcim/regions/", { name: "Europe", slug: "eu" });
  ids.de = await make(api, "/api/dcim/regions/", { name: "Germany", slug: "de", parent: ids.eu });
  ids.fra = await make(api, "/api/dcim/sites/", { name: "FRA1", slug: "fra1", region: ids.de });
  ids.floor = await make(api, "/api/dcim/locations/", { name: "Floor 2", slug: "floor-2", site: ids.fra });
  ids.tenants = await make(api, "/api/tenancy/tenant-groups/", { name: "Customers", slug: "customers" });
  ids.tenant = await make(api, "/api/tenancy/tenants/", { name: "Acme", slug: "acme", group: ids.tenants });
  ids.vlan = await make(api, "/api/ipam/vlans/", { vid: 42, name: "guest" });
  const radio = (name: string, type = "ieee802.11ax") => make(api, interfaces, { device: ids.device, name, type });
  ids.wlan0 = await radio("wlan0");
  ids.wlan1 = await radio("wlan1", "ieee802.11ac");
  ids.wlan2 = await radio("wlan2", "other-wireless");
  ids.wlan3 = await radio("wlan3", "ieee802.15.1");
  ids.eth0 = await radio("eth0", "1000base-t");
  ids.vif0 = await radio("vif0", "virtual");
  ids.vif1 = await radio("vif1", "virtual");
  ids.lag0 = await radio("lag0", "lag");
});
afterAll(() => api.close());

describe("wireless LAN groups", () => {
  it("nest as a tree, count their LANs with their descendants', and filter by parent and ancestor", async () => {
    ids.campus = await make(api, groups, { name: "Campus", slug: "campus" });
    const building = await api.post(groups, { name: "Building A", slug: "building-a", parent: ids.campus, description: "main" });
    expect(building.status, building.text).toBe(201);
    ids.building = building.body.id;
    expect(building.body).toMatchObject({ _depth: 1, wirelesslan_count: 0, display: "Building A" });
    expect(building.body.parent).toMatchObject({ id: ids.campus, name: "Campus", slug: "campus", _depth: 0 });
    expect(building.body.parent.display_url).toBeDefined();
    ids.other = await make(api, groups, { name: "Other", slug: "other" });
    ids.lanInBuilding = await make(api, lans, { ssid: "corp", group: ids.building });
    const campus = await api.get(`${groups}${ids.campus}/`);
    expect(campus.body.wirelesslan_count).toBe(1);
    expect(Object.keys((await api.get(`${groups}${ids.campus}/?brief=1`)).body).sort()).toEqual(
      ["_depth", "description", "display", "id", "name", "slug", "url", "wirelesslan_count"].sort(),
    );
    expect(await listed(groups, "parent=campus")).toEqual([ids.building]);
    expect(await listed(groups, `parent_id=${ids.campus}`)).toEqual([ids.building]);
    expect(await listed(groups, "ancestor=campus")).toEqual([ids.building]);
    expect(await listed(groups, `ancestor_id=${ids.campus}`)).toEqual([ids.building]);
    expect(await listed(groups, "name__ic=build")).toEqual([ids.building]);
    expect(await listed(groups, "q=main")).toEqual([ids.building]);
    expect(await listed(groups, "description=main")).toEqual([ids.building]);
  });

  it("are unique by name and slug everywhere, and a parent's delete takes its subtree", async () => {
    const twin = await api.post(groups, { name: "Building A", slug: "building-a-2", parent: ids.other });
    expect(twin).toMatchObject({ status: 400, body: { name: ["wireless LAN group with this name already exists."] } });
    const slug = await api.post(groups, { name: "Building B", slug: "campus" });
    expect(slug).toMatchObject({ status: 400, body: { slug: ["wireless LAN group with this slug already exists."] } });
    const leaf = await make(api, groups, { name: "Leaf", slug: "leaf", parent: ids.other });
    expect((await api.delete(`${groups}${ids.other}/`)).status).toBe(204);
    expect((await api.get(`${groups}${leaf}/`)).status).toBe(404);
  });
});

describe("wireless LANs", () => {
  it("carry a scope, a VLAN, a tenant and authentication, with NetBox's choices", async () => {
    const made = await api.post(lans, {
      ssid: "guest",
      group: ids.campus,
      status: "reserved",
      vlan: ids.vlan,
      scope_type: "dcim.location",
      scope_id: ids.floor,
      tenant: ids.tenant,
      auth_type: "wpa-personal",
      auth_cipher: "aes",
      auth_psk: "hunter22",
      description: "visitors",
    });
    expect(made.status, made.text).toBe(201);
    ids.guest = made.body.id;
    expect(made.body).toMatchObject({
      display: "guest",
      ssid: "guest",
      status: { value: "reserved", label: "Reserved" },
      auth_type: { value: "wpa-personal", label: "WPA Personal (PSK)" },
      auth_cipher: { value: "aes", label: "AES" },
      auth_psk: "hunter22",
      scope_type: "dcim.location",
      scope_id: ids.floor,
    });
    expect(made.body.group).toMatchObject({ id: ids.campus, slug: "campus", _depth: 0 });
    expect(made.body.vlan).toMatchObject({ id: ids.vlan, vid: 42 });
    expect(made.body.scope).toMatchObject({ id: ids.floor, name: "Floor 2" });
    expect(made.body.tenant).toMatchObject({ id: ids.tenant });
    const open = await api.post(lans, { ssid: "open-net", scope_type: "dcim.site", scope_id: ids.fra, auth_type: "" });
    expect(open.status, open.text).toBe(201);
    expect(open.body).toMatchObject({ status: { value: "active" }, auth_type: null, auth_cipher: null, auth_psk: "" });
    ids.open = open.body.id;
    const brief = await api.get(`${lans}${ids.guest}/?brief=1`);
    expect(Object.keys(brief.body).sort()).toEqual(["description", "display", "id", "ssid", "url"]);
  });

  it("refuse what NetBox refuses", async () => {
    const bad = await api.post(lans, { ssid: "x".repeat(33), auth_type: "wpa3", auth_cipher: "des", status: "gone" });
    expect(bad.status).toBe(400);
    expect(bad.body.ssid).toEqual(["Ensure this field has no more than 32 characters."]);
    expect(bad.body.auth_type).toEqual(["wpa3 is not a valid choice."]);
    expect(bad.body.auth_cipher).toEqual(["des is not a valid choice."]);
    expect(bad.body.status).toEqual(["gone is not a valid choice."]);
    const psk = await api.post(lans, { ssid: "long-key", auth_psk: "k".repeat(65) });
    expect(psk).toMatchObject({ status: 400, body: { auth_psk: ["Ensure this field has no more than 64 characters."] } });
    const scope = await api.post(lans, { ssid: "nowhere", scope_type: "dcim.device", scope_id: ids.device });
    expect(scope.status).toBe(400);
    expect(scope.body.scope_type).toBeDefined();
    const missing = await api.post(lans, { description: "no ssid" });
    expect(missing).toMatchObject({ status: 400, body: { ssid: ["This field is required."] } });
    // A VLAN serving a wireless LAN cannot be deleted.
    expect((await api.delete(`/api/ipam/vlans/${ids.vlan}/`)).status).toBe(409);
  });

  it("filter by scope (regions and groups with their descendants), group, VLAN, tenant, choices and text", async () => {
    expect(await listed(lans, "site=fra1")).toEqual([ids.guest, ids.open].sort());
    expect(await listed(lans, `site_id=${ids.fra}`)).toEqual([ids.guest, ids.open].sort());
    expect(await listed(lans, "region=eu")).toEqual([ids.guest, ids.open].sort());
    expect(await listed(lans, `region_id=${ids.de}`)).toEqual([ids.guest, ids.open].sort());
    expect(await listed(lans, "location=floor-2")).toEqual([ids.guest]);
    expect(await listed(lans, `location_id=${ids.floor}`)).toEqual([ids.guest]);
    expect(await listed(lans, "scope_type=dcim.site")).toEqual([ids.open]);
    expect(await listed(lans, `scope_id=${ids.floor}`)).toEqual([ids.guest]);
    // A group filter takes its descendants too.
    expect(await listed(lans, "group=campus")).toEqual([ids.guest, ids.lanInBuilding].sort());
    expect(await listed(lans, `group_id=${ids.building}`)).toEqual([ids.lanInBuilding]);
    expect(await listed(lans, `vlan_id=${ids.vlan}`)).toEqual([ids.guest]);
    expect(await listed(lans, "tenant=acme")).toEqual([ids.guest]);
    expect(await listed(lans, "tenant_group=customers")).toEqual([ids.guest]);
    expect(await listed(lans, `tenant_group_id=${ids.tenants}`)).toEqual([ids.guest]);
    expect(await listed(lans, "status=reserved")).toEqual([ids.guest]);
    expect(await listed(lans, "auth_type=wpa-personal")).toEqual([ids.guest]);
    expect(await listed(lans, "auth_cipher=aes")).toEqual([ids.guest]);
    expect(await listed(lans, "auth_psk=hunter22")).toEqual([ids.guest]);
    expect(await listed(lans, "ssid__isw=open")).toEqual([ids.open]);
    expect(await listed(lans, "q=visitor")).toEqual([ids.guest]);
    expect((await api.get(`${lans}?site=nowhere`)).status).toBe(400);
  });
});

describe("interfaces' wireless LANs", () => {
  it("are written as ids, read as brief LANs, and filter both ways", async () => {
    const patched = await api.patch(`${interfaces}${ids.wlan0}/`, { wireless_lans: [ids.guest, ids.open] });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.wireless_lans.map((l: any) => l.id).sort()).toEqual([ids.guest, ids.open].sort());
    expect(Object.keys(patched.body.wireless_lans[0]).sort()).toEqual(["description", "display", "id", "ssid", "url"]);
    expect(patched.body.wireless_lans.find((l: any) => l.id === ids.guest).url).toBe(`${ORIGIN}${lans}${ids.guest}/`);
    await api.patch(`${interfaces}${ids.wlan1}/`, { wireless_lans: [ids.open] });
    expect(await listed(interfaces, `wireless_lan_id=${ids.guest}`)).toEqual([ids.wlan0]);
    expect(await listed(interfaces, `wireless_lan_id=${ids.open}`)).toEqual([ids.wlan0, ids.wlan1].sort());
    expect(await listed(interfaces, `device_id=${ids.device}&wireless_lan_id__n=${ids.open}`)).not.toContain(ids.wlan0);
    expect(await listed(lans, `interface_id=${ids.wlan1}`)).toEqual([ids.open]);
    expect(await listed(lans, `interface_id=${ids.wlan0}`)).toEqual([ids.guest, ids.open].sort());
    const unknown = await api.patch(`${interfaces}${ids.wlan1}/`, { wireless_lans: [999999] });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body.wireless_lans)).toContain("999999");
    // Deleting a LAN drops it from its interfaces.
    const temp = await make(api, lans, { ssid: "temp" });
    await api.patch(`${interfaces}${ids.wlan1}/`, { wireless_lans: [ids.open, temp] });
    expect((await api.delete(`${lans}${temp}/`)).status).toBe(204);
    expect((await api.get(`${interfaces}${ids.wlan1}/`)).body.wireless_lans.map((l: any) => l.id)).toEqual([ids.open]);
  });
});

describe("wireless links", () => {
  it("join two radios, show on both interfaces, and read as NetBox's", async () => {
    const made = await api.post(links, {
      interface_a: ids.wlan0,
      interface_b: { device: { name: "dev-ap" }, name: "wlan1" },
      ssid: "bridge",
      tenant: ids.tenant,
      auth_type: "wpa-enterprise",
      distance: 2.5,
      distance_unit: "km",
      description: "rooftop",
    });
    expect(made.status, made.text).toBe(201);
    ids.link = made.body.id;
    expect(made.body).toMatchObject({
      display: "bridge",
      status: { value: "connected", label: "Connected" },
      auth_type: { value: "wpa-enterprise", label: "WPA Enterprise" },
      auth_cipher: null,
      distance: 2.5,
      distance_unit: { value: "km", label: "Kilometers" },
    });
    expect(made.body.interface_a).toMatchObject({ id: ids.wlan0, name: "wlan0", device: { id: ids.device } });
    expect(made.body.interface_b).toMatchObject({ id: ids.wlan1, name: "wlan1" });
    for (const end of [ids.wlan0, ids.wlan1]) {
      const iface = (await api.get(`${interfaces}${end}/`)).body;
      expect(Object.keys(iface.wireless_link).sort()).toEqual(["display", "display_url", "id", "ssid", "url"]);
      expect(iface.wireless_link).toMatchObject({ id: ids.link, ssid: "bridge", display: "bridge", url: `${ORIGIN}${links}${ids.link}/` });
    }
    expect((await api.get(`${interfaces}${ids.wlan2}/`)).body.wireless_link).toBeNull();
    expect(Object.keys((await api.get(`${links}${ids.link}/?brief=1`)).body).sort()).toEqual([
      "description",
      "display",
      "id",
      "ssid",
      "url",
    ]);
    // Without an SSID a link reads as its number.
    const plain = await api.post(links, { interface_a: ids.wlan2, interface_b: ids.wlan3, status: "planned" });
    expect(plain.status, plain.text).toBe(201);
    ids.plain = plain.body.id;
    expect(plain.body.display).toBe(`#${ids.plain}`);
  });

  it("refuse an end that is not a wireless interface, on create and on change", async () => {
    const wired = await api.post(links, { interface_a: ids.eth0, interface_b: ids.wlan2 });
    expect(wired).toMatchObject({ status: 400, body: { interface_a: ["1000BASE-T (1GE) is not a wireless interface."] } });
    const virtual = await api.post(links, { interface_a: ids.wlan2, interface_b: ids.vif0 });
    expect(virtual).toMatchObject({ status: 400, body: { interface_b: ["Virtual is not a wireless interface."] } });
    const moved = await api.patch(`${links}${ids.plain}/`, { interface_b: ids.eth0 });
    expect(moved).toMatchObject({ status: 400, body: { interface_b: ["1000BASE-T (1GE) is not a wireless interface."] } });
    // Changing only another field keeps the ends as they are.
    expect((await api.patch(`${links}${ids.plain}/`, { description: "kept" })).status).toBe(200);
    const missing = await api.post(links, { interface_a: ids.wlan2 });
    expect(missing).toMatchObject({ status: 400, body: { interface_b: ["This field is required."] } });
    const twin = await api.post(links, { interface_a: ids.wlan0, interface_b: ids.wlan1 });
    expect(twin).toMatchObject({
      status: 400,
      body: { __all__: ["Wireless link with this Interface A and Interface B already exists."] },
    });
    const far = await api.post(links, { interface_a: ids.wlan2, interface_b: ids.wlan3, distance: 1_000_000 });
    expect(far.status).toBe(400);
    expect(far.body.distance).toBeDefined();
    const unit = await api.post(links, { interface_a: ids.wlan2, interface_b: ids.wlan3, distance_unit: "yd" });
    expect(unit).toMatchObject({ status: 400, body: { distance_unit: ["yd is not a valid choice."] } });
  });

  it("filter by their ends, choices, tenant and text; interfaces filter by their link", async () => {
    expect(await listed(links, `interface_a_id=${ids.wlan0}`)).toEqual([ids.link]);
    expect(await listed(links, `interface_b_id=${ids.wlan3}`)).toEqual([ids.plain]);
    expect(await listed(links, "status=planned")).toEqual([ids.plain]);
    expect(await listed(links, "auth_type=wpa-enterprise")).toEqual([ids.link]);
    expect(await listed(links, "distance__gte=2")).toEqual([ids.link]);
    expect(await listed(links, "distance_unit=km")).toEqual([ids.link]);
    expect(await listed(links, "tenant=acme")).toEqual([ids.link]);
    expect(await listed(links, "tenant_group=customers")).toEqual([ids.link]);
    expect(await listed(links, "ssid=bridge")).toEqual([ids.link]);
    expect(await listed(links, "q=roof")).toEqual([ids.link]);
    expect(await listed(interfaces, `wireless_link_id=${ids.link}`)).toEqual([ids.wlan0, ids.wlan1].sort());
    expect(await listed(interfaces, `wireless_link_id=${ids.plain}`)).toEqual([ids.wlan2, ids.wlan3].sort());
  });

  it("free their interfaces when deleted, and go with an interface or its device", async () => {
    expect((await api.delete(`${links}${ids.plain}/`)).status).toBe(204);
    expect((await api.get(`${interfaces}${ids.wlan3}/`)).body.wireless_link).toBeNull();
    const again = await make(api, links, { interface_a: ids.wlan2, interface_b: ids.wlan3 });
    const gone = await api.delete(`${interfaces}${ids.wlan3}/`);
    expect(gone.status, gone.text).toBe(204);
    expect((await api.get(`${links}${again}/`)).status).toBe(404);
    // A device's delete takes its radios' links, as NetBox's does.
    const other = await fixtureDevice(api, "ap2");
    const far = await make(api, interfaces, { device: other, name: "wlan0", type: "ieee802.11ax" });
    const link = await make(api, links, { interface_a: ids.wlan2, interface_b: far });
    const deleted = await api.delete(`/api/dcim/devices/${other}/`);
    expect(deleted.status, deleted.text).toBe(204);
    expect((await api.get(`${links}${link}/`)).status).toBe(404);
    expect((await api.get(`${interfaces}${ids.wlan2}/`)).body.wireless_link).toBeNull();
  });
});

describe("virtual circuits", () => {
  it("run over a provider network, with an account of the network's provider only", async () => {
    ids.telco = await make(api, "/api/circuits/providers/", { name: "Telco", slug: "telco" });
    ids.rival = await make(api, "/api/circuits/providers/", { name: "Rival", slug: "rival" });
    ids.mpls = await make(api, "/api/circuits/provider-networks/", { provider: ids.telco, name: "MPLS" });
    ids.acct = await make(api, "/api/circuits/provider-accounts/", { provider: ids.telco, account: "T-1" });
    ids.rivalAcct = await make(api, "/api/circuits/provider-accounts/", { provider: ids.rival, account: "R-1" });
    const type = await api.post("/api/circuits/virtual-circuit-types/", { name: "EVPL", slug: "evpl", color: "00ff00" });
    expect(type.status, type.text).toBe(201);
    ids.evpl = type.body.id;
    const made = await api.post(vcs, {
      cid: "VC-1",
      provider_network: ids.mpls,
      provider_account: ids.acct,
      type: { slug: "evpl" },
      tenant: ids.tenant,
      description: "core",
    });
    expect(made.status, made.text).toBe(201);
    ids.vc1 = made.body.id;
    expect(made.body).toMatchObject({ display: "VC-1", cid: "VC-1", status: { value: "active", label: "Active" } });
    expect(made.body.provider_network).toMatchObject({ id: ids.mpls, name: "MPLS" });
    expect(made.body.provider_account).toMatchObject({ id: ids.acct, account: "T-1" });
    expect(made.body.type).toMatchObject({ id: ids.evpl, slug: "evpl" });
    expect(Object.keys((await api.get(`${vcs}${ids.vc1}/?brief=1`)).body).sort()).toEqual(
      ["cid", "description", "display", "id", "provider_network", "url"].sort(),
    );
    expect((await api.get(`/api/circuits/virtual-circuit-types/${ids.evpl}/`)).body.virtual_circuit_count).toBe(1);
    const wrong = await api.post(vcs, { cid: "VC-2", provider_network: ids.mpls, provider_account: ids.rivalAcct, type: ids.evpl });
    expect(wrong).toMatchObject({
      status: 400,
      body: { provider_account: ["The assigned account must belong to the provider of the assigned network."] },
    });
    const changed = await api.patch(`${vcs}${ids.vc1}/`, { provider_account: ids.rivalAcct });
    expect(changed.status).toBe(400);
    ids.vc2 = await make(api, vcs, { cid: "VC-2", provider_network: ids.mpls, type: ids.evpl, status: "planned" });
    const twin = await api.post(vcs, { cid: "VC-1", provider_network: ids.mpls, type: ids.evpl });
    expect(twin).toMatchObject({
      status: 400,
      body: { __all__: ["Virtual circuit with this Provider network and Circuit ID already exists."] },
    });
    const status = await api.post(vcs, { cid: "VC-3", provider_network: ids.mpls, type: ids.evpl, status: "up" });
    expect(status).toMatchObject({ status: 400, body: { status: ["up is not a valid choice."] } });
    // A network carrying virtual circuits cannot be deleted.
    expect((await api.delete(`/api/circuits/provider-networks/${ids.mpls}/`)).status).toBe(409);
  });

  it("filter by provider, account, network, type, status and tenant", async () => {
    expect(await listed(vcs, "provider=telco")).toEqual([ids.vc1, ids.vc2].sort());
    expect(await listed(vcs, `provider_id=${ids.rival}`)).toEqual([]);
    expect(await listed(vcs, "provider_account=T-1")).toEqual([ids.vc1]);
    expect(await listed(vcs, `provider_account_id=${ids.acct}`)).toEqual([ids.vc1]);
    expect(await listed(vcs, `provider_network_id=${ids.mpls}`)).toEqual([ids.vc1, ids.vc2].sort());
    expect(await listed(vcs, "type=evpl")).toEqual([ids.vc1, ids.vc2].sort());
    expect(await listed(vcs, `type_id=${ids.evpl}`)).toEqual([ids.vc1, ids.vc2].sort());
    expect(await listed(vcs, "status=planned")).toEqual([ids.vc2]);
    expect(await listed(vcs, "tenant_group=customers")).toEqual([ids.vc1]);
    expect(await listed(vcs, "cid__ic=vc-")).toEqual([ids.vc1, ids.vc2].sort());
    expect(await listed(vcs, "q=core")).toEqual([ids.vc1]);
  });

  it("terminate at virtual interfaces only, one termination per interface", async () => {
    const hub = await api.post(terminations, { virtual_circuit: ids.vc1, role: "hub", interface: ids.vif0, description: "head" });
    expect(hub.status, hub.text).toBe(201);
    ids.hub = hub.body.id;
    expect(hub.body).toMatchObject({ display: "VC-1: Hub termination", role: { value: "hub", label: "Hub" } });
    expect(hub.body.virtual_circuit).toMatchObject({ id: ids.vc1, cid: "VC-1", provider_network: { id: ids.mpls } });
    expect(hub.body.interface).toMatchObject({ id: ids.vif0, name: "vif0" });
    expect(Object.keys((await api.get(`${terminations}${ids.hub}/?brief=1`)).body).sort()).toEqual(
      ["description", "display", "id", "interface", "role", "url", "virtual_circuit"].sort(),
    );
    const spoke = await api.post(terminations, { virtual_circuit: ids.vc1, interface: ids.lag0 });
    expect(spoke.status, spoke.text).toBe(201);
    expect(spoke.body).toMatchObject({ role: { value: "peer" }, display: "VC-1: Peer termination" });
    ids.spoke = spoke.body.id;
    const wired = await api.post(terminations, { virtual_circuit: ids.vc2, interface: ids.eth0 });
    expect(wired).toMatchObject({ status: 400, body: { __all__: ["Virtual circuits may be terminated only to virtual interfaces."] } });
    const twice = await api.post(terminations, { virtual_circuit: ids.vc2, interface: ids.vif0 });
    expect(twice).toMatchObject({
      status: 400,
      body: { interface: ["virtual circuit termination with this interface already exists."] },
    });
    const role = await api.post(terminations, { virtual_circuit: ids.vc2, interface: ids.vif1, role: "leaf" });
    expect(role).toMatchObject({ status: 400, body: { role: ["leaf is not a valid choice."] } });
    ids.peer = await make(api, terminations, { virtual_circuit: ids.vc2, interface: ids.vif1, role: "spoke" });
  });

  it("filter terminations by circuit, role, provider and interface; interfaces by their virtual circuit", async () => {
    expect(await listed(terminations, `virtual_circuit_id=${ids.vc1}`)).toEqual([ids.hub, ids.spoke].sort());
    expect(await listed(terminations, "role=hub")).toEqual([ids.hub]);
    expect(await listed(terminations, "provider=telco")).toEqual([ids.hub, ids.spoke, ids.peer].sort());
    expect(await listed(terminations, `provider_id=${ids.telco}`)).toEqual([ids.hub, ids.spoke, ids.peer].sort());
    expect(await listed(terminations, "provider_account=T-1")).toEqual([ids.hub, ids.spoke].sort());
    expect(await listed(terminations, `provider_account_id=${ids.acct}`)).toEqual([ids.hub, ids.spoke].sort());
    expect(await listed(terminations, `provider_network_id=${ids.mpls}`)).toEqual([ids.hub, ids.spoke, ids.peer].sort());
    expect(await listed(terminations, `interface_id=${ids.vif1}`)).toEqual([ids.peer]);
    expect(await listed(terminations, "q=head")).toEqual([ids.hub]);
    expect(await listed(interfaces, `virtual_circuit_id=${ids.vc1}`)).toEqual([ids.vif0, ids.lag0].sort());
    expect(await listed(interfaces, `virtual_circuit_termination_id=${ids.peer}`)).toEqual([ids.vif1]);
  });

  it("serve a termination's paths, and go with their circuit or interface", async () => {
    const paths = await api.get(`${terminations}${ids.hub}/paths/`);
    expect(paths.status, paths.text).toBe(200);
    expect(paths.body).toEqual([]);
    expect((await api.get(`${terminations}999999/paths/`)).status).toBe(404);
    expect((await api.delete(`${interfaces}${ids.lag0}/`)).status).toBe(204);
    expect((await api.get(`${terminations}${ids.spoke}/`)).status).toBe(404);
    expect((await api.delete(`${vcs}${ids.vc2}/`)).status).toBe(204);
    expect((await api.get(`${terminations}${ids.peer}/`)).status).toBe(404);
  });

  it("join circuit groups, and group assignments filter by them", async () => {
    const group = await make(api, "/api/circuits/circuit-groups/", { name: "Ring", slug: "ring" });
    const assignment = await api.post("/api/circuits/circuit-group-assignments/", {
      group,
      member_type: "circuits.virtualcircuit",
      member_id: ids.vc1,
      priority: "primary",
    });
    expect(assignment.status, assignment.text).toBe(201);
    expect(assignment.body.member).toMatchObject({ id: ids.vc1, cid: "VC-1" });
    expect(await listed("/api/circuits/circuit-group-assignments/", `virtual_circuit_id=${ids.vc1}`)).toEqual([assignment.body.id]);
    expect(await listed("/api/circuits/circuit-group-assignments/", "virtual_circuit=VC-1")).toEqual([assignment.body.id]);
  });
});
