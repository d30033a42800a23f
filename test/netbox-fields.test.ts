/**
 * Fields and filters NetBox 4.2 has on models this service already served: interfaces' MAC
 * addresses, VRF and FHRP count, VM interfaces' VLANs and VRF, sites' and providers' ASNs, and the
 * filters that go with them. Each filter is checked to narrow the list to exactly the objects
 * NetBox's would give, never to answer the whole list.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "./support/harness.ts";
import { listed, make } from "./contract/fixtures.ts";

let api: Harness;
const id: Record<string, number> = {};

/** The `key` (default `name`) of each result of a list, which must answer 200. */
const names = (path: string, key = "name") => listed(api, path, key);

beforeAll(async () => {
  api = await createHarness();
  id.europe = await make(api, "/api/dcim/regions/", { name: "Europe", slug: "europe" });
  id.germany = await make(api, "/api/dcim/regions/", { name: "Germany", slug: "germany", parent: id.europe });
  id.asia = await make(api, "/api/dcim/regions/", { name: "Asia", slug: "asia" });
  id.tg = await make(api, "/api/tenancy/tenant-groups/", { name: "Customers", slug: "customers" });
  id.tenant = await make(api, "/api/tenancy/tenants/", { name: "Acme", slug: "acme", group: id.tg });
  id.ber = await make(api, "/api/dcim/sites/", { name: "Berlin", slug: "ber", region: id.germany });
  id.tok = await make(api, "/api/dcim/sites/", { name: "Tokyo", slug: "tok", region: id.asia });
  id.floor = await make(api, "/api/dcim/locations/", { name: "Floor 1", slug: "floor-1", site: id.ber });
  id.rack = await make(api, "/api/dcim/racks/", { name: "R1", site: id.ber });
  const manufacturer = await make(api, "/api/dcim/manufacturers/", { name: "Acme", slug: "acme" });
  const type = await make(api, "/api/dcim/device-types/", { manufacturer, model: "Switch", slug: "switch" });
  id.role = await make(api, "/api/dcim/device-roles/", { name: "Leaf", slug: "leaf" });
  const device = (name: string, site: number, extra = {}) =>
    make(api, "/api/dcim/devices/", { name, site, device_type: type, role: id.role, ...extra });
  id.sw1 = await device("sw1", id.ber, { rack: id.rack });
  id.sw2 = await device("sw2", id.ber);
  id.sw3 = await device("sw3", id.tok);
  id.vc = await make(api, "/api/dcim/virtual-chassis/", { name: "stack", master: id.sw1 });
  for (const [sw, position] of [
    [id.sw1, 1],
    [id.sw2, 2],
  ])
    expect((await api.patch(`/api/dcim/devices/${sw}/`, { virtual_chassis: id.vc, vc_position: position })).status).toBe(200);
  id.vrf = await make(api, "/api/ipam/vrfs/", { name: "blue", rd: "65000:1" });
  id.vlan10 = await make(api, "/api/ipam/vlans/", { vid: 10, name: "ten", site: id.ber });
  id.vlan20 = await make(api, "/api/ipam/vlans/", { vid: 20, name: "twenty" });
  const iface = (device: number, name: string, extra = {}) =>
    make(api, "/api/dcim/interfaces/", { device, name, type: "1000base-t", ...extra });
  id.eth0 = await iface(id.sw1, "eth0", { vrf: id.vrf, mode: "access", untagged_vlan: id.vlan10 });
  id.eth1 = await iface(id.sw2, "eth1", { mode: "tagged", tagged_vlans: [id.vlan20] });
  id.eth2 = await iface(id.sw3, "eth2");
  id.vlanif = await iface(id.sw3, "vlan10", { type: "virtual" });
  id.radio = await iface(id.sw3, "wlan0", { type: "ieee802.11ax" });
});
afterAll(() => api.close());

describe("interfaces", () => {
  it("show their primary MAC address, every MAC assigned to them, and refuse a primary MAC of another interface", async () => {
    const mac = await make(api, "/api/dcim/mac-addresses/", {
      mac_address: "00:11:22:33:44:55",
      assigned_object_type: "dcim.interface",
      assigned_object_id: id.eth0,
    });
    await make(api, "/api/dcim/mac-addresses/", {
      mac_address: "00-11-22-33-44-66",
      assigned_object_type: "dcim.interface",
      assigned_object_id: id.eth0,
    });
    const set = await api.patch(`/api/dcim/interfaces/${id.eth0}/`, { primary_mac_address: mac });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({
      mac_address: "00:11:22:33:44:55",
      primary_mac_address: { id: mac, mac_address: "00:11:22:33:44:55" },
    });
    expect(set.body.mac_addresses.map((m: any) => m.mac_address)).toEqual(["00:11:22:33:44:55", "00:11:22:33:44:66"]);
    expect(await names("/api/dcim/interfaces/?mac_address=00:11:22:33:44:66")).toEqual(["eth0"]);
    expect(await names("/api/dcim/interfaces/?primary_mac_address=00:11:22:33:44:55")).toEqual(["eth0"]);
    const refused = await api.patch(`/api/dcim/interfaces/${id.eth1}/`, { primary_mac_address: mac });
    expect(refused).toMatchObject({
      status: 400,
      body: { primary_mac_address: ["MAC address 00:11:22:33:44:55 is not assigned to this interface."] },
    });
  });

  it("have a VRF and count their FHRP groups", async () => {
    const eth0 = (await api.get(`/api/dcim/interfaces/${id.eth0}/`)).body;
    expect(eth0.vrf).toMatchObject({ id: id.vrf, name: "blue", rd: "65000:1" });
    expect(eth0.count_fhrp_groups).toBe(0);
    const group = await make(api, "/api/ipam/fhrp-groups/", { protocol: "vrrp2", group_id: 1 });
    await make(api, "/api/ipam/fhrp-group-assignments/", { group, interface_type: "dcim.interface", interface_id: id.eth0, priority: 100 });
    expect((await api.get(`/api/dcim/interfaces/${id.eth0}/`)).body.count_fhrp_groups).toBe(1);
    expect(await names(`/api/dcim/interfaces/?vrf_id=${id.vrf}`)).toEqual(["eth0"]);
    expect(await names("/api/dcim/interfaces/?vrf=65000:1")).toEqual(["eth0"]);
  });

  it("filter by their device's rack, role, virtual chassis and its members, by kind and by VLAN", async () => {
    expect(await names(`/api/dcim/interfaces/?rack_id=${id.rack}`)).toEqual(["eth0"]);
    expect(await names(`/api/dcim/interfaces/?virtual_chassis_id=${id.vc}`)).toEqual(["eth0", "eth1"]);
    expect(await names("/api/dcim/interfaces/?virtual_chassis_member=sw2")).toEqual(["eth0", "eth1"]);
    expect(await names(`/api/dcim/interfaces/?virtual_chassis_member_id=${id.sw3}`)).toEqual(["eth2", "vlan10", "wlan0"]);
    expect(await names("/api/dcim/interfaces/?device_role=leaf&site=tok")).toEqual(["eth2", "vlan10", "wlan0"]);
    expect(await names("/api/dcim/interfaces/?kind=virtual")).toEqual(["vlan10"]);
    expect(await names("/api/dcim/interfaces/?kind=wireless")).toEqual(["wlan0"]);
    expect(await names(`/api/dcim/interfaces/?kind=physical&device_id=${id.sw3}`)).toEqual(["eth2"]);
    expect(await names(`/api/dcim/interfaces/?vlan_id=${id.vlan10}`)).toEqual(["eth0"]);
    expect(await names(`/api/dcim/interfaces/?vlan_id=${id.vlan20}`)).toEqual(["eth1"]);
    expect(await names("/api/dcim/interfaces/?vlan=20&vlan=10")).toEqual(["eth0", "eth1"]);
    expect((await api.get("/api/dcim/interfaces/?vlan=ten")).status).toBe(400);
    // Every device component has the rack and virtual chassis filters.
    await make(api, "/api/dcim/console-ports/", { device: id.sw1, name: "con0" });
    expect(await names(`/api/dcim/console-ports/?rack_id=${id.rack}`)).toEqual(["con0"]);
    expect(await names("/api/dcim/console-ports/?virtual_chassis=stack")).toEqual(["con0"]);
  });
});

describe("VM interfaces", () => {
  it("take untagged and tagged VLANs under the 802.1Q rules, a VRF, and filter by them", async () => {
    const ctype = await make(api, "/api/virtualization/cluster-types/", { name: "KVM", slug: "kvm" });
    const cluster = await make(api, "/api/virtualization/clusters/", { name: "c1", type: ctype });
    const vm = await make(api, "/api/virtualization/virtual-machines/", { name: "vm1", cluster, site: id.tok });
    const refused = await api.post("/api/virtualization/interfaces/", {
      virtual_machine: vm,
      name: "eth0",
      mode: "access",
      untagged_vlan: id.vlan10,
    });
    expect(refused).toMatchObject({
      status: 400,
      body: {
        untagged_vlan: [
          "The untagged VLAN (ten (10)) must belong to the same site as the interface's parent virtual machine, or it must be global.",
        ],
      },
    });
    const noMode = await api.post("/api/virtualization/interfaces/", { virtual_machine: vm, name: "eth0", tagged_vlans: [id.vlan20] });
    expect(noMode.status).toBe(400);
    const ok = await api.post("/api/virtualization/interfaces/", {
      virtual_machine: vm,
      name: "eth0",
      mode: "tagged",
      tagged_vlans: [id.vlan20],
      vrf: id.vrf,
    });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body).toMatchObject({
      untagged_vlan: null,
      tagged_vlans: [{ id: id.vlan20, vid: 20 }],
      vrf: { id: id.vrf },
      count_fhrp_groups: 0,
    });
    id.vmeth0 = ok.body.id;
    id.vm = vm;
    expect(await names(`/api/virtualization/interfaces/?vlan_id=${id.vlan20}`)).toEqual(["eth0"]);
    expect(await names("/api/virtualization/interfaces/?vlan=10")).toEqual([]);
    expect(await names(`/api/virtualization/interfaces/?vrf_id=${id.vrf}`)).toEqual(["eth0"]);
    expect(await names(`/api/ipam/vlans/?vminterface_id=${id.vmeth0}`)).toEqual(["twenty"]);
    expect(await names(`/api/ipam/vlans/?available_on_virtualmachine=${vm}`)).toEqual(["twenty"]);
  });
});

describe("IPAM filters", () => {
  it("find addresses by virtual machine, VM interface, FHRP group and service", async () => {
    const vmip = await make(api, "/api/ipam/ip-addresses/", {
      address: "192.0.2.1/24",
      assigned_object_type: "virtualization.vminterface",
      assigned_object_id: id.vmeth0,
    });
    const group = await make(api, "/api/ipam/fhrp-groups/", { protocol: "hsrp", group_id: 7 });
    await make(api, "/api/ipam/ip-addresses/", {
      address: "192.0.2.254/24",
      assigned_object_type: "ipam.fhrpgroup",
      assigned_object_id: group,
    });
    await make(api, "/api/ipam/services/", { virtual_machine: id.vm, name: "ssh", protocol: "tcp", ports: [22], ipaddresses: [vmip] });
    const service = (await api.get("/api/ipam/services/?name=ssh")).body.results[0].id;
    expect(await names("/api/ipam/ip-addresses/?virtual_machine=vm1", "address")).toEqual(["192.0.2.1/24"]);
    expect(await names("/api/ipam/ip-addresses/?vminterface=eth0", "address")).toEqual(["192.0.2.1/24"]);
    expect(await names(`/api/ipam/ip-addresses/?fhrpgroup_id=${group}`, "address")).toEqual(["192.0.2.254/24"]);
    expect(await names(`/api/ipam/ip-addresses/?service_id=${service}`, "address")).toEqual(["192.0.2.1/24"]);
  });

  it("find VLANs by region, by the interfaces carrying them, and those usable at a site", async () => {
    expect(await names("/api/ipam/vlans/?region=europe")).toEqual(["ten"]);
    expect(await names(`/api/ipam/vlans/?interface_id=${id.eth0}`)).toEqual(["ten"]);
    const group = await make(api, "/api/ipam/vlan-groups/", {
      name: "floor",
      slug: "floor",
      scope_type: "dcim.location",
      scope_id: id.floor,
    });
    await make(api, "/api/ipam/vlans/", { vid: 30, name: "thirty", group });
    expect((await names(`/api/ipam/vlans/?available_at_site=${id.ber}`)).sort()).toEqual(["ten", "thirty", "twenty"]);
    expect(await names(`/api/ipam/vlans/?available_at_site=${id.tok}`)).toEqual(["twenty"]);
  });

  it("find prefixes by the region, site group and location of their scope, and by tenant group", async () => {
    await make(api, "/api/ipam/prefixes/", { prefix: "10.1.0.0/16", scope_type: "dcim.location", scope_id: id.floor, tenant: id.tenant });
    await make(api, "/api/ipam/prefixes/", { prefix: "10.2.0.0/16", scope_type: "dcim.region", scope_id: id.asia });
    await make(api, "/api/ipam/prefixes/", { prefix: "10.3.0.0/16" });
    expect(await names("/api/ipam/prefixes/?region=europe", "prefix")).toEqual(["10.1.0.0/16"]);
    expect(await names(`/api/ipam/prefixes/?region_id=${id.asia}`, "prefix")).toEqual(["10.2.0.0/16"]);
    expect(await names(`/api/ipam/prefixes/?location_id=${id.floor}`, "prefix")).toEqual(["10.1.0.0/16"]);
    expect(await names("/api/ipam/prefixes/?tenant_group=customers", "prefix")).toEqual(["10.1.0.0/16"]);
    expect((await api.get("/api/ipam/prefixes/?region=nowhere")).status).toBe(400);
  });

  it("find route targets by the VRFs importing or exporting them", async () => {
    const [a, b] = [
      await make(api, "/api/ipam/route-targets/", { name: "65000:100" }),
      await make(api, "/api/ipam/route-targets/", { name: "65000:200" }),
    ];
    await api.patch(`/api/ipam/vrfs/${id.vrf}/`, { import_targets: [a], export_targets: [b] });
    expect(await names(`/api/ipam/route-targets/?importing_vrf_id=${id.vrf}`)).toEqual(["65000:100"]);
    expect(await names("/api/ipam/route-targets/?exporting_vrf=65000:1")).toEqual(["65000:200"]);
  });
});

describe("ASNs of sites and providers", () => {
  it("are written and read on both, counted on the ASN, and filter both ways", async () => {
    const [a, b] = [await make(api, "/api/ipam/asns/", { asn: 65001 }), await make(api, "/api/ipam/asns/", { asn: 65002 })];
    const site = await api.patch(`/api/dcim/sites/${id.ber}/`, { asns: [a, b] });
    expect(site.status, site.text).toBe(200);
    expect(site.body.asns.map((x: any) => x.asn)).toEqual([65001, 65002]);
    expect((await api.get(`/api/dcim/sites/${id.ber}/`)).body.asns.map((x: any) => x.id)).toEqual([a, b]);
    const provider = await api.post("/api/circuits/providers/", { name: "Transit", slug: "transit", asns: [b] });
    expect(provider.status, provider.text).toBe(201);
    expect((await api.get(`/api/ipam/asns/${b}/`)).body).toMatchObject({ site_count: 1, provider_count: 1 });
    expect(await names("/api/dcim/sites/?asn=65001")).toEqual(["Berlin"]);
    expect(await names(`/api/circuits/providers/?asn_id=${b}`)).toEqual(["Transit"]);
    expect(await names("/api/ipam/asns/?site=ber", "asn")).toEqual([65001, 65002]);
    expect(await names("/api/ipam/asns/?provider=transit", "asn")).toEqual([65002]);
  });
});

describe("tenants and devices", () => {
  it("count what each tenant holds", async () => {
    const tenant = (await api.get(`/api/tenancy/tenants/${id.tenant}/`)).body;
    expect(tenant).toMatchObject({ prefix_count: 1, site_count: 0, device_count: 0, vlan_count: 0, cluster_count: 0 });
    await api.patch(`/api/dcim/sites/${id.tok}/`, { tenant: id.tenant });
    expect((await api.get(`/api/tenancy/tenants/${id.tenant}/`)).body.site_count).toBe(1);
  });

  it("take their type's airflow when created without one", async () => {
    const manufacturer = await make(api, "/api/dcim/manufacturers/", { name: "Fans", slug: "fans" });
    const type = await make(api, "/api/dcim/device-types/", { manufacturer, model: "Blower", slug: "blower", airflow: "front-to-rear" });
    const taken = await api.post("/api/dcim/devices/", { name: "b1", site: id.ber, device_type: type, role: id.role });
    expect(taken.body.airflow).toMatchObject({ value: "front-to-rear" });
    const own = await api.post("/api/dcim/devices/", { name: "b2", site: id.ber, device_type: type, role: id.role, airflow: "passive" });
    expect(own.body.airflow).toMatchObject({ value: "passive" });
    const changed = await api.get(`/api/core/object-changes/?changed_object_id=${taken.body.id}&changed_object_type=dcim.device`);
    expect(changed.body.results[0].postchange_data.airflow).toBe("front-to-rear");
  });
});

describe("L2VPNs at NetBox 3.5's path", () => {
  it("are served under /api/ipam/ too, as Ansible's collection before 3.17 calls them", async () => {
    const created = await api.post("/api/ipam/l2vpns/", { name: "l2", slug: "l2", type: "vxlan", identifier: 5000 });
    expect(created.status, created.text).toBe(201);
    expect((await api.get(`/api/vpn/l2vpns/${created.body.id}/`)).body.name).toBe("l2");
    expect((await api.get("/api/ipam/l2vpns/?name=l2")).body.count).toBe(1);
    expect((await api.get("/api/ipam/l2vpn-terminations/")).status).toBe(200);
  });
});

describe("users, permissions, event rules and cables", () => {
  it("filter as NetBox's do", async () => {
    const ops = await make(api, "/api/users/groups/", { name: "ops" });
    const alice = await make(api, "/api/users/users/", { username: "alice", password: "Password-alice-1", groups: [ops] });
    await make(api, "/api/users/users/", { username: "bob", password: "Password-bob-12" });
    const viewSites = await make(api, "/api/users/permissions/", {
      name: "view sites",
      object_types: ["dcim.site"],
      actions: ["view"],
      users: [alice],
    });
    await make(api, "/api/users/permissions/", {
      name: "edit vlans",
      object_types: ["ipam.vlan"],
      actions: ["view", "change"],
      groups: [ops],
    });
    expect(await names(`/api/users/users/?permission_id=${viewSites}`, "username")).toEqual(["alice"]);
    expect(await names(`/api/users/groups/?user_id=${alice}`)).toEqual(["ops"]);
    expect(await names("/api/users/permissions/?can_change=true")).toEqual(["edit vlans"]);
    expect(await names("/api/users/permissions/?can_change=false&can_view=true")).toEqual(["view sites"]);
    expect(await names("/api/users/permissions/?object_type=dcim.site")).toEqual(["view sites"]);
    expect((await api.get("/api/users/groups/?permission_id=999999")).status).toBe(400);

    const webhook = await make(api, "/api/extras/webhooks/", { name: "w", payload_url: "http://192.0.2.1/hook" });
    const rule = { action_type: "webhook", action_object_type: "extras.webhook", action_object_id: webhook };
    await make(api, "/api/extras/event-rules/", { name: "sites", object_types: ["dcim.site"], event_types: ["object_created"], ...rule });
    await make(api, "/api/extras/event-rules/", { name: "vlans", object_types: ["ipam.vlan"], event_types: ["object_deleted"], ...rule });
    expect(await names("/api/extras/event-rules/?object_type=ipam.vlan")).toEqual(["vlans"]);
    expect(await names("/api/extras/event-rules/?event_type=object_created")).toEqual(["sites"]);

    const end = (object_id: number) => [{ object_type: "dcim.interface", object_id }];
    const [a, b] = [await iface2("c1"), await iface2("c2")];
    const cable = await api.post("/api/dcim/cables/", { a_terminations: end(a), b_terminations: end(b) });
    expect(cable.status, cable.text).toBe(201);
    // Here a cable that loses its last termination at one end goes with it, so none is ever unterminated.
    expect(await names("/api/dcim/cables/?unterminated=true", "id")).toEqual([]);
    expect(await names("/api/dcim/cables/?unterminated=false", "id")).toEqual([cable.body.id]);
  });
});

/** A fresh interface on sw3. */
const iface2 = (name: string) => make(api, "/api/dcim/interfaces/", { device: id.sw3, name, type: "1000base-t" });

describe("device types", () => {
  it("filter by the component templates they have, and by images (none here)", async () => {
    const manufacturer = await make(api, "/api/dcim/manufacturers/", { name: "Templates", slug: "templates" });
    const bare = await make(api, "/api/dcim/device-types/", { manufacturer, model: "Bare", slug: "bare" });
    const full = await make(api, "/api/dcim/device-types/", { manufacturer, model: "Full", slug: "full" });
    await make(api, "/api/dcim/interface-templates/", { device_type: full, name: "eth0", type: "1000base-t" });
    await make(api, "/api/dcim/rear-port-templates/", { device_type: full, name: "r1", type: "8p8c" });
    const of = async (query: string) => (await names(`/api/dcim/device-types/?manufacturer_id=${manufacturer}&${query}`, "id")).sort();
    expect(await of("interfaces=true")).toEqual([full]);
    expect(await of("interfaces=false")).toEqual([bare]);
    expect(await of("pass_through_ports=true")).toEqual([full]);
    expect(await of("console_ports=true")).toEqual([]);
    expect(await of("has_front_image=false")).toEqual([bare, full]);
  });
});

describe("MAC addresses and FHRP group assignments", () => {
  it("filter by the interface, device, VM interface and virtual machine they are assigned to", async () => {
    const macs = async (query: string) => names(`/api/dcim/mac-addresses/?${query}`, "mac_address");
    expect(await macs("device=sw1")).toEqual(["00:11:22:33:44:55", "00:11:22:33:44:66"]);
    expect(await macs(`interface_id=${id.eth0}`)).toEqual(["00:11:22:33:44:55", "00:11:22:33:44:66"]);
    expect(await macs("virtual_machine=vm1")).toEqual([]);
    expect((await api.get("/api/dcim/mac-addresses/?device_id=abc")).status).toBe(400);
    expect((await api.get(`/api/ipam/fhrp-group-assignments/?device_id=${id.sw1}`)).body.count).toBe(1);
    expect((await api.get("/api/ipam/fhrp-group-assignments/?virtual_machine=vm1")).body.count).toBe(0);
  });
});

describe("VLAN groups, platforms and service templates", () => {
  it("filter as NetBox's do", async () => {
    const atSite = await make(api, "/api/ipam/vlan-groups/", {
      name: "g-site",
      slug: "g-site",
      scope_type: "dcim.site",
      scope_id: id.tok,
      vid_ranges: [[100, 199]],
    });
    await make(api, "/api/ipam/vlan-groups/", { name: "g-region", slug: "g-region", scope_type: "dcim.region", scope_id: id.asia });
    expect(await names(`/api/ipam/vlan-groups/?site=${id.tok}`, "id")).toEqual([atSite]);
    expect(await names(`/api/ipam/vlan-groups/?region=${id.asia}`)).toEqual(["g-region"]);
    expect(await names("/api/ipam/vlan-groups/?contains_vid=150&name__isw=g-")).toEqual(["g-region", "g-site"]);
    expect(await names("/api/ipam/vlan-groups/?contains_vid=250&name__isw=g-")).toEqual(["g-region"]);
    expect((await api.get("/api/ipam/vlan-groups/?site=tok")).status).toBe(400);

    const vendor = await make(api, "/api/dcim/manufacturers/", { name: "Vendor", slug: "vendor" });
    const other = await make(api, "/api/dcim/manufacturers/", { name: "Other", slug: "other" });
    const type = await make(api, "/api/dcim/device-types/", { manufacturer: vendor, model: "V1", slug: "v1" });
    await make(api, "/api/dcim/platforms/", { name: "vos", slug: "vos", manufacturer: vendor });
    await make(api, "/api/dcim/platforms/", { name: "linux", slug: "linux" });
    await make(api, "/api/dcim/platforms/", { name: "oos", slug: "oos", manufacturer: other });
    expect(await names(`/api/dcim/platforms/?available_for_device_type=${type}`)).toEqual(["linux", "vos"]);

    await make(api, "/api/ipam/service-templates/", { name: "https", protocol: "tcp", ports: [443, 8443] });
    await make(api, "/api/ipam/service-templates/", { name: "dns", protocol: "udp", ports: [53] });
    expect(await names("/api/ipam/service-templates/?port=8443")).toEqual(["https"]);
  });
});

describe("object types", () => {
  it("list every model with an id other filters take", async () => {
    const all = await api.get("/api/extras/object-types/?limit=0");
    expect(all.status, all.text).toBe(200);
    const site = all.body.results.find((o: any) => o.app_label === "dcim" && o.model === "site");
    expect(site).toMatchObject({ display: "dcim | site", url: expect.stringContaining(`/api/extras/object-types/${site.id}/`) });
    expect(all.body.count).toBeGreaterThan(100);
    expect((await api.post("/api/extras/object-types/", { app_label: "x", model: "y" })).status).toBe(405);
    const vlan = all.body.results.find((o: any) => o.model === "vlan").id;
    // The filters that take an object type's id.
    expect(await names(`/api/extras/event-rules/?object_type_id=${vlan}`)).toEqual(["vlans"]);
    expect(await names(`/api/users/permissions/?object_type_id=${site.id}`)).toEqual(["view sites"]);
    const changes = await api.get(`/api/core/object-changes/?changed_object_type_id=${site.id}&limit=100`);
    expect(changes.body.count).toBeGreaterThan(0);
    expect(changes.body.results.every((c: any) => c.changed_object_type === "dcim.site")).toBe(true);
    expect((await api.get("/api/core/object-changes/?changed_object_type_id=abc")).status).toBe(400);
    const tag = await make(api, "/api/extras/tags/", { name: "OnSites", slug: "on-sites" });
    await api.patch(`/api/dcim/sites/${id.tok}/`, { tags: [tag] });
    expect(await names(`/api/extras/tags/?content_type_id=${site.id}`)).toEqual(["OnSites"]);
    expect(await names("/api/extras/tags/?content_type=dcim.site")).toEqual(["OnSites"]);
    expect(await names(`/api/extras/tags/?content_type_id=${vlan}`)).toEqual([]);
  });
});
