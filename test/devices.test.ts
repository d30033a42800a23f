import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "./support/harness.ts";
import { make } from "./contract/fixtures.ts";

let api: Harness;
const ids: Record<string, number> = {};

beforeAll(async () => {
  api = await createHarness();
  ids.eu = await make(api, "/api/dcim/regions/", { name: "Europe", slug: "eu" });
  ids.de = await make(api, "/api/dcim/regions/", { name: "Germany", slug: "de", parent: ids.eu });
  ids.fra = await make(api, "/api/dcim/sites/", { name: "FRA1", slug: "fra1", region: ids.de });
  ids.nyc = await make(api, "/api/dcim/sites/", { name: "NYC1", slug: "nyc1" });
  ids.juniper = await make(api, "/api/dcim/manufacturers/", { name: "Juniper", slug: "juniper" });
  ids.cisco = await make(api, "/api/dcim/manufacturers/", { name: "Cisco", slug: "cisco" });
  ids.mx = await make(api, "/api/dcim/device-types/", { manufacturer: ids.juniper, model: "MX204", slug: "mx204" });
  ids.nexus = await make(api, "/api/dcim/device-types/", { manufacturer: { slug: "cisco" }, model: "N9K", slug: "n9k" });
  ids.router = await make(api, "/api/dcim/device-roles/", { name: "Router", slug: "router", color: "ff0000" });
  ids.switch = await make(api, "/api/dcim/device-roles/", { name: "Switch", slug: "switch" });
});
afterAll(() => api.close());

describe("devices", () => {
  it("accept role or the older device_role on write and return both", async () => {
    const byRole = await api.post("/api/dcim/devices/", { name: "r1", device_type: ids.mx, role: ids.router, site: ids.fra });
    const byOld = await api.post("/api/dcim/devices/", {
      name: "s1",
      device_type: ids.nexus,
      device_role: { slug: "switch" },
      site: ids.nyc,
    });
    expect(byRole.status, byRole.text).toBe(201);
    expect(byOld.status, byOld.text).toBe(201);
    expect(byRole.body.role).toEqual(byRole.body.device_role);
    expect(byOld.body.device_role).toMatchObject({ id: ids.switch, slug: "switch", name: "Switch" });
    expect(byOld.body.role).toEqual(byOld.body.device_role);
    const moved = await api.patch(`/api/dcim/devices/${byOld.body.id}/`, { device_role: ids.router });
    expect(moved.body.role.id).toBe(ids.router);
    const missing = await api.post("/api/dcim/devices/", { name: "x", device_type: ids.mx, site: ids.fra });
    expect(missing).toMatchObject({ status: 400, body: { role: ["This field is required."] } });
    expect((await api.get(`/api/dcim/devices/?device_role=router`)).body.count).toBe(2);
  });

  it("show display and display_name as NetBox does: the name, else type and id", async () => {
    const named = await api.post("/api/dcim/devices/", {
      name: "edge1",
      asset_tag: "A100",
      device_type: ids.mx,
      role: ids.router,
      site: ids.fra,
    });
    expect([named.body.display, named.body.display_name]).toEqual(["edge1 (A100)", "edge1 (A100)"]);
    const unnamed = await api.post("/api/dcim/devices/", { device_type: ids.mx, role: ids.router, site: ids.fra });
    expect(unnamed.body.display).toBe(`Juniper MX204 (${unnamed.body.id})`);
    expect(unnamed.body.name).toBeNull();
    // Unnamed devices never collide; named ones are unique per site.
    expect((await api.post("/api/dcim/devices/", { device_type: ids.mx, role: ids.router, site: ids.fra })).status).toBe(201);
    const twin = await api.post("/api/dcim/devices/", { name: "edge1", device_type: ids.mx, role: ids.router, site: ids.fra });
    expect(twin).toMatchObject({ status: 400, body: { __all__: ["Device name must be unique per site."] } });
  });

  it("filter by manufacturer, model, region (with sub-regions) and role through lookup paths", async () => {
    const names = async (q: string) =>
      (await api.get(`/api/dcim/devices/?${q}&limit=0`)).body.results
        .map((d: any) => d.name)
        .filter(Boolean)
        .sort();
    expect(await names("manufacturer=juniper")).toEqual(["edge1", "r1"]);
    expect(await names(`manufacturer_id=${ids.cisco}`)).toEqual(["s1"]);
    expect(await names("model=n9k")).toEqual(["s1"]);
    expect(await names("region=eu")).toEqual(["edge1", "r1"]);
    expect(await names("region__n=eu")).toEqual(["s1"]);
    expect((await api.get("/api/dcim/devices/?manufacturer=nobody")).body).toEqual({
      manufacturer: ["Select a valid choice. nobody is not one of the available choices."],
    });
  });
});

describe("interfaces", () => {
  it("nest their device in their nested form, and filter by device id, device name and manufacturer", async () => {
    const r1 = (await api.get("/api/dcim/devices/?name=r1")).body.results[0];
    const s1 = (await api.get("/api/dcim/devices/?name=s1")).body.results[0];
    const lag = await api.post("/api/dcim/interfaces/", { device: r1.id, name: "ae0", type: "lag" });
    const member = await api.post("/api/dcim/interfaces/", {
      device: { name: "r1" },
      name: "et-0/0/0",
      type: "100gbase-x-qsfp28",
      lag: lag.body.id,
    });
    await api.post("/api/dcim/interfaces/", { device: s1.id, name: "Ethernet1/1", type: "10gbase-x-sfpp" });
    expect(member.status, member.text).toBe(201);
    // The nested LAG carries its own nested device, as NetBox's nested interface does.
    expect(member.body.lag).toMatchObject({
      id: lag.body.id,
      name: "ae0",
      display: "ae0",
      _occupied: false,
      device: { id: r1.id, name: "r1", display: "r1", display_name: "r1", url: `http://inventory.test/api/dcim/devices/${r1.id}/` },
    });
    expect(member.body.type).toEqual({ value: "100gbase-x-qsfp28", label: "QSFP28 (100GE)" });
    const names = async (q: string) => (await api.get(`/api/dcim/interfaces/?${q}`)).body.results.map((i: any) => i.name);
    expect(await names(`device_id=${r1.id}`)).toEqual(["ae0", "et-0/0/0"]);
    expect(await names("device=s1")).toEqual(["Ethernet1/1"]);
    expect(await names("manufacturer=juniper")).toEqual(["ae0", "et-0/0/0"]);
    expect(await names(`lag_id=${lag.body.id}`)).toEqual(["et-0/0/0"]);
    expect((await api.get("/api/dcim/interfaces/?device=nope")).status).toBe(400);
    expect((await api.get(`/api/dcim/devices/${r1.id}/`)).body.interface_count).toBe(2);
  });

  it("read a page of any size in one round trip, related objects nested", async () => {
    const r1 = (await api.get("/api/dcim/devices/?name=r1")).body.results[0];
    await api.post(
      "/api/dcim/interfaces/",
      Array.from({ length: 60 }, (_, i) => ({ device: r1.id, name: `xe-${i}`, type: "10gbase-x-sfpp" })),
    );
    await api.get("/api/dcim/interfaces/?limit=1");
    const one = await api.cost(() => api.get("/api/dcim/interfaces/?limit=1"));
    const many = await api.cost(() => api.get("/api/dcim/interfaces/?limit=1000"));
    expect(many).toEqual(one);
    expect(many.roundTrips).toBe(1);
  });

  it("select only ?fields= or all but ?omit=, skipping what is not shown", async () => {
    const only = await api.get("/api/dcim/interfaces/?fields=id,name,device&limit=1");
    expect(Object.keys(only.body.results[0]).sort()).toEqual(["device", "id", "name"]);
    const omitted = await api.get("/api/dcim/interfaces/?omit=device,tags&limit=1");
    expect(omitted.body.results[0]).not.toHaveProperty("device");
    expect(omitted.body.results[0]).toHaveProperty("name");
  });
});

describe("declared routes", () => {
  it("serve token provisioning through the same pipeline, with Allow on OPTIONS and 405 otherwise", async () => {
    const options = await api.request("OPTIONS", "/api/users/tokens/provision/", { token: null });
    expect(options.headers.get("Allow")).toBe("POST, OPTIONS");
    expect((await api.get("/api/users/tokens/provision/", { token: null })).status).toBe(405);
    const reply = await api.post("/api/users/tokens/provision/", { username: "admin", password: "admin-password" }, { token: null });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.key).toMatch(/^[0-9a-f]{40}$/);
    expect(reply.headers.get("X-Request-ID")).toBeTruthy();
    expect((await api.get("/api/dcim/sites/nope/")).status).toBe(404);
  });

  it("filter by what inventories select on: primary IP, components, MAC, tenant and cluster groups, local context, bays", async () => {
    const names = async (q: string) =>
      (await api.get(`/api/dcim/devices/?${q}&limit=0`)).body.results
        .map((d: any) => d.name)
        .filter(Boolean)
        .sort();
    const group = await make(api, "/api/tenancy/tenant-groups/", { name: "Customers", slug: "customers" });
    const tenant = await make(api, "/api/tenancy/tenants/", { name: "Acme", slug: "acme", group });
    const clusterGroup = await make(api, "/api/virtualization/cluster-groups/", { name: "Edge", slug: "edge" });
    const clusterType = await make(api, "/api/virtualization/cluster-types/", { name: "KVM", slug: "kvm" });
    const cluster = await make(api, "/api/virtualization/clusters/", {
      name: "C1",
      type: clusterType,
      group: clusterGroup,
      scope_type: "dcim.site",
      scope_id: ids.nyc,
    });
    const chassis = await make(api, "/api/dcim/device-types/", {
      manufacturer: ids.cisco,
      model: "Chassis",
      slug: "chassis",
      subdevice_role: "parent",
    });
    const blade = await make(api, "/api/dcim/device-types/", {
      manufacturer: ids.cisco,
      model: "Blade",
      slug: "blade",
      subdevice_role: "child",
      u_height: 0,
    });
    const host = await make(api, "/api/dcim/devices/", {
      name: "host1",
      device_type: chassis,
      role: ids.switch,
      site: ids.nyc,
      tenant,
      cluster,
      local_context_data: { a: 1 },
    });
    const iface = await make(api, "/api/dcim/interfaces/", { device: host, name: "eth0", type: "1000base-t" });
    const ip = await make(api, "/api/ipam/ip-addresses/", {
      address: "192.0.2.10/24",
      assigned_object_type: "dcim.interface",
      assigned_object_id: iface,
    });
    expect((await api.patch(`/api/dcim/devices/${host}/`, { primary_ip4: ip })).status).toBe(200);
    await make(api, "/api/dcim/mac-addresses/", {
      mac_address: "00:11:22:33:44:55",
      assigned_object_type: "dcim.interface",
      assigned_object_id: iface,
    });
    const bay = await make(api, "/api/dcim/device-bays/", { device: host, name: "bay1" });

    expect(await names("has_primary_ip=true")).toEqual(["host1"]);
    expect(await names("has_primary_ip=false")).not.toContain("host1");
    expect(await names("has_oob_ip=true")).toEqual([]);
    expect(await names("interfaces=true")).toEqual(["host1", "r1", "s1"]);
    expect(await names("interfaces=false")).toEqual(["edge1"]);
    expect(await names("device_bays=true")).toEqual(["host1"]);
    expect(await names("console_ports=true")).toEqual([]);
    expect(await names("mac_address=00-11-22-33-44-55")).toEqual(["host1"]);
    expect(await names("tenant_group=customers")).toEqual(["host1"]);
    expect(await names(`tenant_group_id=${group}`)).toEqual(["host1"]);
    expect(await names("cluster_group=edge")).toEqual(["host1"]);
    expect(await names("local_context_data=true")).toEqual(["host1"]);
    expect(await names("is_full_depth=true")).toContain("host1");
    expect(await names(`parent_device_id=${host}`)).toEqual([]);
    const child = await make(api, "/api/dcim/devices/", { name: "blade1", device_type: blade, role: ids.switch, site: ids.nyc });
    expect((await api.patch(`/api/dcim/device-bays/${bay}/`, { installed_device: child })).status).toBe(200);
    expect(await names(`parent_device_id=${host}`)).toEqual(["blade1"]);
    expect(await names(`parent_bay_id=${bay}`)).toEqual(["blade1"]);
  });
});
