import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "./support/harness.ts";
import { make } from "./contract/fixtures.ts";

let api: Harness;
const ids: Record<string, number> = {};
/** The values of `key` of every object the list answers for `query`. */
const listed = async (path: string, query: string, key = "id") =>
  (await api.get(`${path}?${query}${query ? "&" : ""}limit=0`)).body.results.map((o: any) => o[key]).sort();

const interfaceAt = (device: number, name: string) => make(api, "/api/dcim/interfaces/", { device, name, type: "1000base-t" });

beforeAll(async () => {
  api = await createHarness();
  ids.eu = await make(api, "/api/dcim/regions/", { name: "Europe", slug: "eu" });
  ids.de = await make(api, "/api/dcim/regions/", { name: "Germany", slug: "de", parent: ids.eu });
  ids.fra = await make(api, "/api/dcim/sites/", { name: "FRA1", slug: "fra1", region: ids.de });
  ids.nyc = await make(api, "/api/dcim/sites/", { name: "NYC1", slug: "nyc1" });
  const manufacturer = await make(api, "/api/dcim/manufacturers/", { name: "Maker", slug: "maker" });
  const device_type = await make(api, "/api/dcim/device-types/", { manufacturer, model: "Router", slug: "router" });
  const role = await make(api, "/api/dcim/device-roles/", { name: "Edge", slug: "edge" });
  ids.r1 = await make(api, "/api/dcim/devices/", { name: "r1", device_type, role, site: ids.fra });
  ids.r2 = await make(api, "/api/dcim/devices/", { name: "r2", device_type, role, site: ids.nyc });
  for (const [key, device, name] of [
    ["r1a", ids.r1, "eth0"],
    ["r1b", ids.r1, "eth1"],
    ["r1c", ids.r1, "eth2"],
    ["r2a", ids.r2, "eth0"],
    ["r2b", ids.r2, "eth1"],
  ] as const)
    ids[key] = await interfaceAt(device, name);
  ids.vm = await make(api, "/api/virtualization/virtual-machines/", { name: "vm1", site: ids.nyc });
  ids.vmi = await make(api, "/api/virtualization/interfaces/", { virtual_machine: ids.vm, name: "ens3" });
  ids.vlan = await make(api, "/api/ipam/vlans/", { vid: 100, name: "users", site: ids.fra });
  ids.vlan2 = await make(api, "/api/ipam/vlans/", { vid: 200, name: "voice" });
  ids.ip1 = await make(api, "/api/ipam/ip-addresses/", { address: "198.51.100.1/24" });
  ids.ip2 = await make(api, "/api/ipam/ip-addresses/", { address: "203.0.113.1/24" });
  ids.tenant = await make(api, "/api/tenancy/tenants/", { name: "Customer", slug: "customer" });
});
afterAll(() => api.close());

describe("IKE and IPSec", () => {
  it("an IKE policy needs a mode with IKEv1 and refuses one with IKEv2", async () => {
    const v1 = await api.post("/api/vpn/ike-policies/", { name: "v1", version: 1 });
    expect(v1).toMatchObject({ status: 400, body: { __all__: ["Mode is required for selected IKE version"] } });
    const v2 = await api.post("/api/vpn/ike-policies/", { name: "v2", mode: "main" });
    expect(v2).toMatchObject({ status: 400, body: { __all__: ["Mode cannot be used for selected IKE version"] } });
    const ok = await api.post("/api/vpn/ike-policies/", { name: "v1", version: 1, mode: "aggressive" });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body).toMatchObject({
      version: { value: 1, label: "IKEv1" },
      mode: { value: "aggressive", label: "Aggressive" },
      proposals: [],
    });
    // A partial update is judged with the stored side it does not change.
    const up = await api.patch(`/api/vpn/ike-policies/${ok.body.id}/`, { version: 2 });
    expect(up).toMatchObject({ status: 400, body: { __all__: ["Mode cannot be used for selected IKE version"] } });
    const both = await api.patch(`/api/vpn/ike-policies/${ok.body.id}/`, { version: 2, mode: null });
    expect(both.body).toMatchObject({ version: { value: 2, label: "IKEv2" }, mode: null });
    await api.delete(`/api/vpn/ike-policies/${ok.body.id}/`);
  });

  it("an IPSec proposal names an encryption or an authentication algorithm", async () => {
    const none = await api.post("/api/vpn/ipsec-proposals/", { name: "empty" });
    expect(none).toMatchObject({ status: 400, body: { __all__: ["Encryption and/or authentication algorithm must be defined"] } });
    const made = await api.post("/api/vpn/ipsec-proposals/", { name: "ah only", authentication_algorithm: "hmac-sha256" });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({
      encryption_algorithm: null,
      authentication_algorithm: { value: "hmac-sha256", label: "SHA-256 HMAC" },
    });
    const cleared = await api.patch(`/api/vpn/ipsec-proposals/${made.body.id}/`, { authentication_algorithm: null });
    expect(cleared.status).toBe(400);
    await api.delete(`/api/vpn/ipsec-proposals/${made.body.id}/`);
  });

  it("builds a profile from policies and their proposals, filtered both ways", async () => {
    const ikeProposal = await api.post("/api/vpn/ike-proposals/", {
      name: "IKE AES",
      authentication_method: "preshared-keys",
      encryption_algorithm: "aes-256-cbc",
      authentication_algorithm: "hmac-sha256",
      group: 14,
      sa_lifetime: 28800,
    });
    expect(ikeProposal.status, ikeProposal.text).toBe(201);
    expect(ikeProposal.body.group).toEqual({ value: 14, label: "Group 14" });
    const badGroup = await api.post("/api/vpn/ike-proposals/", {
      name: "bad",
      authentication_method: "preshared-keys",
      encryption_algorithm: "aes-256-cbc",
      group: 3,
    });
    expect(badGroup).toMatchObject({ status: 400, body: { group: ["3 is not a valid choice."] } });
    ids.ikeProposal = ikeProposal.body.id;
    ids.ikePolicy = await make(api, "/api/vpn/ike-policies/", { name: "IKE pol", proposals: [ids.ikeProposal], preshared_key: "s3cret" });
    const policy = (await api.get(`/api/vpn/ike-policies/${ids.ikePolicy}/`)).body;
    expect(policy.proposals).toEqual([expect.objectContaining({ id: ids.ikeProposal, name: "IKE AES" })]);
    expect(policy.preshared_key).toBe("s3cret");
    ids.ipsecProposal = await make(api, "/api/vpn/ipsec-proposals/", { name: "ESP GCM", encryption_algorithm: "aes-256-gcm" });
    ids.ipsecPolicy = await make(api, "/api/vpn/ipsec-policies/", { name: "IPSec pol", proposals: [ids.ipsecProposal], pfs_group: 19 });
    const profile = await api.post("/api/vpn/ipsec-profiles/", {
      name: "Site to site",
      mode: "esp",
      ike_policy: { name: "IKE pol" },
      ipsec_policy: ids.ipsecPolicy,
    });
    expect(profile.status, profile.text).toBe(201);
    expect(profile.body).toMatchObject({
      mode: { value: "esp", label: "ESP" },
      ike_policy: { id: ids.ikePolicy, name: "IKE pol" },
      ipsec_policy: { id: ids.ipsecPolicy, name: "IPSec pol" },
    });
    ids.profile = profile.body.id;

    expect(await listed("/api/vpn/ike-proposals/", `ike_policy_id=${ids.ikePolicy}`)).toEqual([ids.ikeProposal]);
    expect(await listed("/api/vpn/ike-proposals/", "ike_policy=IKE%20pol")).toEqual([ids.ikeProposal]);
    expect(await listed("/api/vpn/ike-proposals/", "group=14&authentication_method=preshared-keys")).toEqual([ids.ikeProposal]);
    expect(await listed("/api/vpn/ike-proposals/", "group=20")).toEqual([]);
    expect(await listed("/api/vpn/ike-policies/", `ike_proposal_id=${ids.ikeProposal}`)).toEqual([ids.ikePolicy]);
    expect(await listed("/api/vpn/ike-policies/", "ike_proposal=IKE%20AES&version=2")).toEqual([ids.ikePolicy]);
    expect(await listed("/api/vpn/ipsec-proposals/", `ipsec_policy_id=${ids.ipsecPolicy}`)).toEqual([ids.ipsecProposal]);
    expect(await listed("/api/vpn/ipsec-policies/", "ipsec_proposal=ESP%20GCM&pfs_group=19")).toEqual([ids.ipsecPolicy]);
    expect(await listed("/api/vpn/ipsec-profiles/", `ike_policy_id=${ids.ikePolicy}&ipsec_policy=IPSec%20pol&mode=esp`)).toEqual([
      ids.profile,
    ]);
    expect((await api.get("/api/vpn/ike-proposals/?ike_policy=nothing")).status).toBe(400);
    // A policy in use by a profile is protected.
    const gone = await api.delete(`/api/vpn/ike-policies/${ids.ikePolicy}/`);
    expect(gone.status).toBe(409);
  });
});

describe("tunnels", () => {
  it("terminate on device and VM interfaces, one tunnel per interface", async () => {
    ids.group = await make(api, "/api/vpn/tunnel-groups/", { name: "Mesh", slug: "mesh" });
    const tunnel = await api.post("/api/vpn/tunnels/", {
      name: "FRA-NYC",
      encapsulation: "ipsec-tunnel",
      group: { slug: "mesh" },
      ipsec_profile: ids.profile,
      tenant: ids.tenant,
      tunnel_id: 42,
    });
    expect(tunnel.status, tunnel.text).toBe(201);
    expect(tunnel.body).toMatchObject({
      status: { value: "active", label: "Active" },
      encapsulation: { value: "ipsec-tunnel", label: "IPsec - Tunnel" },
      group: { id: ids.group, slug: "mesh" },
      ipsec_profile: { id: ids.profile, name: "Site to site" },
      terminations_count: 0,
    });
    ids.tunnel = tunnel.body.id;
    ids.gre = await make(api, "/api/vpn/tunnels/", { name: "GRE", encapsulation: "gre", status: "planned" });

    const hub = await api.post("/api/vpn/tunnel-terminations/", {
      tunnel: ids.tunnel,
      role: "hub",
      termination_type: "dcim.interface",
      termination_id: ids.r1a,
      outside_ip: ids.ip1,
    });
    expect(hub.status, hub.text).toBe(201);
    expect(hub.body).toMatchObject({
      display: `FRA-NYC: Termination ${hub.body.id}`,
      tunnel: { id: ids.tunnel, name: "FRA-NYC" },
      role: { value: "hub", label: "Hub" },
      termination_type: "dcim.interface",
      termination_id: ids.r1a,
      termination: { id: ids.r1a, name: "eth0", device: expect.objectContaining({ id: ids.r1 }) },
      outside_ip: { id: ids.ip1, address: "198.51.100.1/24" },
    });
    ids.hub = hub.body.id;
    const spoke = await api.post("/api/vpn/tunnel-terminations/", {
      tunnel: ids.tunnel,
      termination_type: "dcim.interface",
      termination_id: ids.r2a,
      outside_ip: ids.ip2,
    });
    expect(spoke.body.role).toEqual({ value: "peer", label: "Peer" });
    ids.spoke = spoke.body.id;
    ids.vmEnd = await make(api, "/api/vpn/tunnel-terminations/", {
      tunnel: ids.gre,
      termination_type: "virtualization.vminterface",
      termination_id: ids.vmi,
    });
    expect((await api.get(`/api/vpn/tunnels/${ids.tunnel}/`)).body.terminations_count).toBe(2);

    const again = await api.post("/api/vpn/tunnel-terminations/", {
      tunnel: ids.gre,
      termination_type: "dcim.interface",
      termination_id: ids.r1a,
    });
    // NetBox's clean() and its constraint both speak, in that order.
    expect(Object.keys(again.body)).toEqual(["termination", "__all__"]);
    expect(again).toMatchObject({
      status: 400,
      body: {
        termination: ["eth0 is already attached to a tunnel (FRA-NYC)."],
        __all__: ["An object may be terminated to only one tunnel at a time."],
      },
    });
    // Several terminations may share an outside address.
    const sameIp = await api.post("/api/vpn/tunnel-terminations/", {
      tunnel: ids.gre,
      termination_type: "dcim.interface",
      termination_id: ids.r1b,
      outside_ip: ids.ip1,
    });
    expect(sameIp.status, sameIp.text).toBe(201);
    await api.delete(`/api/vpn/tunnel-terminations/${sameIp.body.id}/`);
    // Editing a termination keeps its own object.
    const own = await api.patch(`/api/vpn/tunnel-terminations/${ids.hub}/`, {
      termination_type: "dcim.interface",
      termination_id: ids.r1a,
    });
    expect(own.status, own.text).toBe(200);
    const site = await api.post("/api/vpn/tunnel-terminations/", {
      tunnel: ids.gre,
      termination_type: "dcim.site",
      termination_id: ids.fra,
    });
    expect(site.status).toBe(400);
    expect(site.body).toHaveProperty("termination_type");
    const missing = await api.post("/api/vpn/tunnel-terminations/", {
      tunnel: ids.gre,
      termination_type: "dcim.interface",
      termination_id: 99999,
    });
    expect(missing.status).toBe(400);
  });

  it("filter tunnels and their terminations", async () => {
    const tunnels = "/api/vpn/tunnels/";
    expect(await listed(tunnels, "group=mesh")).toEqual([ids.tunnel]);
    expect(await listed(tunnels, `group_id=${ids.group}`)).toEqual([ids.tunnel]);
    expect(await listed(tunnels, "status=planned")).toEqual([ids.gre]);
    expect(await listed(tunnels, "encapsulation=gre")).toEqual([ids.gre]);
    expect(await listed(tunnels, "ipsec_profile=Site%20to%20site")).toEqual([ids.tunnel]);
    expect(await listed(tunnels, `ipsec_profile_id=${ids.profile}`)).toEqual([ids.tunnel]);
    expect(await listed(tunnels, "tenant=customer")).toEqual([ids.tunnel]);
    expect(await listed(tunnels, "tunnel_id__gte=40")).toEqual([ids.tunnel]);
    expect(await listed(tunnels, "q=nyc")).toEqual([ids.tunnel]);
    expect((await api.get(`${tunnels}?group=nowhere`)).status).toBe(400);

    const terms = "/api/vpn/tunnel-terminations/";
    expect(await listed(terms, `tunnel_id=${ids.tunnel}`)).toEqual([ids.hub, ids.spoke].sort());
    expect(await listed(terms, "tunnel=GRE")).toEqual([ids.vmEnd]);
    expect(await listed(terms, "role=hub")).toEqual([ids.hub]);
    expect(await listed(terms, "termination_type=virtualization.vminterface")).toEqual([ids.vmEnd]);
    expect(await listed(terms, `interface_id=${ids.r2a}`)).toEqual([ids.spoke]);
    expect(await listed(terms, "interface=eth0")).toEqual([ids.hub, ids.spoke].sort());
    expect(await listed(terms, `vminterface_id=${ids.vmi}`)).toEqual([ids.vmEnd]);
    expect(await listed(terms, "vminterface=ens3")).toEqual([ids.vmEnd]);
    expect(await listed(terms, `outside_ip_id=${ids.ip1}`)).toEqual([ids.hub]);
    expect(await listed(terms, `termination_id=${ids.vmi}&termination_type=virtualization.vminterface`)).toEqual([ids.vmEnd]);
  });

  it("are deleted with their interface and their tunnel", async () => {
    const iface = await interfaceAt(ids.r2, "tmp0");
    const term = await make(api, "/api/vpn/tunnel-terminations/", {
      tunnel: ids.gre,
      termination_type: "dcim.interface",
      termination_id: iface,
    });
    expect((await api.delete(`/api/dcim/interfaces/${iface}/`)).status).toBe(204);
    expect((await api.get(`/api/vpn/tunnel-terminations/${term}/`)).status).toBe(404);
    const doomed = await make(api, "/api/vpn/tunnels/", { name: "doomed", encapsulation: "wireguard" });
    const end = await make(api, "/api/vpn/tunnel-terminations/", {
      tunnel: doomed,
      termination_type: "dcim.interface",
      termination_id: ids.r2b,
    });
    expect((await api.delete(`/api/vpn/tunnels/${doomed}/`)).status).toBe(204);
    expect((await api.get(`/api/vpn/tunnel-terminations/${end}/`)).status).toBe(404);
    // A tunnel group in use is protected.
    expect((await api.delete(`/api/vpn/tunnel-groups/${ids.group}/`)).status).toBe(409);
  });
});

describe("L2VPNs", () => {
  it("terminate on interfaces, VM interfaces and VLANs, shown on each as l2vpn_termination", async () => {
    const rt = await make(api, "/api/ipam/route-targets/", { name: "65000:100" });
    const l2vpn = await api.post("/api/vpn/l2vpns/", {
      name: "Campus",
      slug: "campus",
      type: "vxlan-evpn",
      identifier: 10100,
      import_targets: [rt],
      export_targets: [{ name: "65000:100" }],
      tenant: ids.tenant,
    });
    expect(l2vpn.status, l2vpn.text).toBe(201);
    expect(l2vpn.body).toMatchObject({
      display: "Campus (10100)",
      type: { value: "vxlan-evpn", label: "VXLAN-EVPN" },
      import_targets: [expect.objectContaining({ id: rt, name: "65000:100" })],
      export_targets: [expect.objectContaining({ id: rt })],
    });
    ids.campus = l2vpn.body.id;
    ids.rt = rt;
    ids.wire = await make(api, "/api/vpn/l2vpns/", { name: "Wire", slug: "wire", type: "vpws" });

    const onInterface = await api.post("/api/vpn/l2vpn-terminations/", {
      l2vpn: ids.campus,
      assigned_object_type: "dcim.interface",
      assigned_object_id: ids.r1b,
    });
    expect(onInterface.status, onInterface.text).toBe(201);
    expect(onInterface.body).toMatchObject({
      display: "eth1 <> Campus (10100)",
      // Nested, its choice reads as the bare value (SPEC.md 2.2).
      l2vpn: { id: ids.campus, name: "Campus", slug: "campus", identifier: 10100, type: "vxlan-evpn" },
      assigned_object_type: "dcim.interface",
      assigned_object_id: ids.r1b,
      assigned_object: { id: ids.r1b, name: "eth1" },
    });
    ids.t1 = onInterface.body.id;
    ids.t2 = await make(api, "/api/vpn/l2vpn-terminations/", {
      l2vpn: { slug: "campus" },
      assigned_object_type: "ipam.vlan",
      assigned_object_id: ids.vlan,
    });
    ids.t3 = await make(api, "/api/vpn/l2vpn-terminations/", {
      l2vpn: ids.campus,
      assigned_object_type: "virtualization.vminterface",
      assigned_object_id: ids.vmi,
    });
    expect((await api.get(`/api/vpn/l2vpn-terminations/${ids.t2}/`)).body.display).toBe("users (100) <> Campus (10100)");

    const brief = { id: ids.t1, url: expect.stringContaining(`/api/vpn/l2vpn-terminations/${ids.t1}/`), display: "eth1 <> Campus (10100)" };
    const iface = (await api.get(`/api/dcim/interfaces/${ids.r1b}/`)).body;
    expect(iface.l2vpn_termination).toMatchObject({ ...brief, l2vpn: { id: ids.campus, name: "Campus" } });
    expect(Object.keys(iface.l2vpn_termination).sort()).toEqual(["display", "id", "l2vpn", "url"]);
    expect((await api.get(`/api/dcim/interfaces/${ids.r1c}/`)).body.l2vpn_termination).toBeNull();
    expect((await api.get(`/api/virtualization/interfaces/${ids.vmi}/`)).body.l2vpn_termination).toMatchObject({ id: ids.t3 });
    expect((await api.get(`/api/ipam/vlans/${ids.vlan}/`)).body.l2vpn_termination).toMatchObject({ id: ids.t2 });
    expect((await api.get(`/api/ipam/vlans/${ids.vlan2}/`)).body.l2vpn_termination).toBeNull();
    // Not part of the brief form.
    expect((await api.get(`/api/dcim/interfaces/${ids.r1b}/?brief=1`)).body).not.toHaveProperty("l2vpn_termination");
  });

  it("refuses a second L2VPN for one object, other object types, and a third termination of a point-to-point L2VPN", async () => {
    const twice = await api.post("/api/vpn/l2vpn-terminations/", {
      l2vpn: ids.wire,
      assigned_object_type: "dcim.interface",
      assigned_object_id: ids.r1b,
    });
    expect(twice).toMatchObject({
      status: 400,
      body: {
        __all__: [
          "L2VPN Termination already assigned (eth1)",
          "L2VPN termination with this Assigned object type and Assigned object id already exists.",
        ],
      },
    });
    const site = await api.post("/api/vpn/l2vpn-terminations/", {
      l2vpn: ids.wire,
      assigned_object_type: "dcim.site",
      assigned_object_id: ids.fra,
    });
    expect(site.status).toBe(400);
    expect(site.body).toHaveProperty("assigned_object_type");

    // Two in one request pass; a third, even in the same request as the two, does not.
    const three = await api.post("/api/vpn/l2vpn-terminations/", [
      { l2vpn: ids.wire, assigned_object_type: "dcim.interface", assigned_object_id: ids.r1c },
      { l2vpn: ids.wire, assigned_object_type: "dcim.interface", assigned_object_id: ids.r2a },
      { l2vpn: ids.wire, assigned_object_type: "ipam.vlan", assigned_object_id: ids.vlan2 },
    ]);
    expect(three.status).toBe(400);
    expect(three.body[2]).toEqual({ __all__: ["VPWS L2VPNs cannot have more than two terminations; found 2 already defined."] });
    expect(await listed("/api/vpn/l2vpn-terminations/", `l2vpn_id=${ids.wire}`)).toEqual([]);
    const two = await api.post("/api/vpn/l2vpn-terminations/", [
      { l2vpn: ids.wire, assigned_object_type: "dcim.interface", assigned_object_id: ids.r1c },
      { l2vpn: ids.wire, assigned_object_type: "dcim.interface", assigned_object_id: ids.r2a },
    ]);
    expect(two.status, two.text).toBe(201);
    [ids.w1, ids.w2] = two.body.map((t: any) => t.id);
    const third = await api.post("/api/vpn/l2vpn-terminations/", {
      l2vpn: ids.wire,
      assigned_object_type: "ipam.vlan",
      assigned_object_id: ids.vlan2,
    });
    expect(third).toMatchObject({
      status: 400,
      body: { __all__: ["VPWS L2VPNs cannot have more than two terminations; found 2 already defined."] },
    });
    // Moving a termination onto it counts too; editing one of its own does not.
    const moved = await api.patch(`/api/vpn/l2vpn-terminations/${ids.t3}/`, { l2vpn: ids.wire });
    expect(moved.status).toBe(400);
    const own = await api.patch(`/api/vpn/l2vpn-terminations/${ids.w1}/`, { l2vpn: ids.wire });
    expect(own.status, own.text).toBe(200);
    // A multipoint type takes any number.
    expect((await api.patch(`/api/vpn/l2vpns/${ids.wire}/`, { type: "vpls" })).status).toBe(200);
    const more = await api.post("/api/vpn/l2vpn-terminations/", {
      l2vpn: ids.wire,
      assigned_object_type: "ipam.vlan",
      assigned_object_id: ids.vlan2,
    });
    expect(more.status, more.text).toBe(201);
    ids.w3 = more.body.id;
  });

  it("filter L2VPNs and their terminations", async () => {
    const l2vpns = "/api/vpn/l2vpns/";
    expect(await listed(l2vpns, "type=vxlan-evpn")).toEqual([ids.campus]);
    expect(await listed(l2vpns, "identifier=10100")).toEqual([ids.campus]);
    expect(await listed(l2vpns, "slug=wire")).toEqual([ids.wire]);
    expect(await listed(l2vpns, `import_target_id=${ids.rt}`)).toEqual([ids.campus]);
    expect(await listed(l2vpns, "export_target=65000:100")).toEqual([ids.campus]);
    expect(await listed(l2vpns, "tenant=customer")).toEqual([ids.campus]);
    expect(await listed(l2vpns, "q=camp")).toEqual([ids.campus]);

    // Route targets by the L2VPNs importing or exporting them: by identifier, or by id.
    const targets = "/api/ipam/route-targets/";
    const spare = await make(api, targets, { name: "65000:200" });
    expect(await listed(targets, "importing_l2vpn=10100")).toEqual([ids.rt]);
    expect(await listed(targets, "importing_l2vpn__n=10100")).toEqual([spare]);
    expect(await listed(targets, `exporting_l2vpn_id=${ids.campus}`)).toEqual([ids.rt]);
    expect(await listed(targets, `importing_l2vpn_id=${ids.wire}`)).toEqual([]);
    expect(await listed(targets, "exporting_l2vpn=1")).toEqual([]);
    expect((await api.get(`${targets}?exporting_l2vpn_id=99999`)).status).toBe(400);

    const terms = "/api/vpn/l2vpn-terminations/";
    expect(await listed(terms, "l2vpn=campus")).toEqual([ids.t1, ids.t2, ids.t3].sort());
    expect(await listed(terms, `l2vpn_id=${ids.wire}`)).toEqual([ids.w1, ids.w2, ids.w3].sort());
    expect(await listed(terms, "assigned_object_type=ipam.vlan")).toEqual([ids.t2, ids.w3].sort());
    expect(await listed(terms, "device=r1")).toEqual([ids.t1, ids.w1].sort());
    expect(await listed(terms, `device_id=${ids.r2}`)).toEqual([ids.w2]);
    expect(await listed(terms, "virtual_machine=vm1")).toEqual([ids.t3]);
    expect(await listed(terms, `virtual_machine_id=${ids.vm}`)).toEqual([ids.t3]);
    expect(await listed(terms, "interface=eth1")).toEqual([ids.t1]);
    expect(await listed(terms, `interface_id=${ids.r2a}`)).toEqual([ids.w2]);
    expect(await listed(terms, "vminterface=ens3")).toEqual([ids.t3]);
    expect(await listed(terms, `vlan_id=${ids.vlan2}`)).toEqual([ids.w3]);
    expect(await listed(terms, "vlan=users")).toEqual([ids.t2]);
    expect(await listed(terms, "vlan_vid=200")).toEqual([ids.w3]);
    expect(await listed(terms, "vlan_vid__lt=150")).toEqual([ids.t2]);
    // Sites and regions: of the device, the VM or the VLAN; a region takes its subregions' sites.
    expect(await listed(terms, "site=fra1")).toEqual([ids.t1, ids.t2, ids.w1].sort());
    expect(await listed(terms, `site_id=${ids.nyc}`)).toEqual([ids.t3, ids.w2].sort());
    expect(await listed(terms, "region=eu")).toEqual([ids.t1, ids.t2, ids.w1].sort());
    expect((await api.get(`${terms}?l2vpn=nothing`)).status).toBe(400);
  });

  it("filter interfaces, VM interfaces and VLANs by their L2VPN: l2vpn by identifier, l2vpn_id by id", async () => {
    expect(await listed("/api/dcim/interfaces/", `l2vpn_id=${ids.campus}`)).toEqual([ids.r1b]);
    expect(await listed("/api/dcim/interfaces/", `l2vpn_id=${ids.wire}`)).toEqual([ids.r1c, ids.r2a].sort());
    expect(await listed("/api/dcim/interfaces/", "l2vpn=10100")).toEqual([ids.r1b]);
    expect(await listed("/api/dcim/interfaces/", `device_id=${ids.r1}&l2vpn__n=10100`)).toEqual([ids.r1a, ids.r1c].sort());
    expect(await listed("/api/virtualization/interfaces/", `l2vpn_id=${ids.campus}`)).toEqual([ids.vmi]);
    expect(await listed("/api/virtualization/interfaces/", "l2vpn=1")).toEqual([]);
    expect(await listed("/api/ipam/vlans/", `l2vpn_id=${ids.wire}`)).toEqual([ids.vlan2]);
    expect(await listed("/api/ipam/vlans/", "l2vpn=10100")).toEqual([ids.vlan]);
    expect((await api.get("/api/ipam/vlans/?l2vpn_id=99999")).status).toBe(400);
  });

  it("are deleted with the object they terminate on, and with their L2VPN", async () => {
    expect((await api.delete(`/api/ipam/vlans/${ids.vlan2}/`)).status).toBe(204);
    expect((await api.get(`/api/vpn/l2vpn-terminations/${ids.w3}/`)).status).toBe(404);
    expect((await api.delete(`/api/vpn/l2vpns/${ids.wire}/`)).status).toBe(204);
    expect((await api.get(`/api/vpn/l2vpn-terminations/${ids.w1}/`)).status).toBe(404);
    expect((await api.get(`/api/dcim/interfaces/${ids.r1c}/`)).body.l2vpn_termination).toBeNull();
    // A route target in use is simply dropped from the L2VPN's sets.
    expect((await api.delete(`/api/ipam/route-targets/${ids.rt}/`)).status).toBe(204);
    expect((await api.get(`/api/vpn/l2vpns/${ids.campus}/`)).body.import_targets).toEqual([]);
  });
});

describe("the vpn app", () => {
  it("is listed in the API root with its ten endpoints", async () => {
    expect((await api.get("/api/")).body.vpn).toMatch(/\/api\/vpn\/$/);
    expect(Object.keys((await api.get("/api/vpn/")).body).sort()).toEqual([
      "ike-policies",
      "ike-proposals",
      "ipsec-policies",
      "ipsec-profiles",
      "ipsec-proposals",
      "l2vpn-terminations",
      "l2vpns",
      "tunnel-groups",
      "tunnel-terminations",
      "tunnels",
    ]);
  });
});
