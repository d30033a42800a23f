import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "./support/harness.ts";
import { make } from "./contract/fixtures.ts";

let api: Harness;
const ids: Record<string, number> = {};
const VMS = "/api/virtualization/virtual-machines/";
const IFACES = "/api/virtualization/interfaces/";
const DISKS = "/api/virtualization/virtual-disks/";
const CLUSTERS = "/api/virtualization/clusters/";
const vm = (id: number) => `${VMS}${id}/`;

beforeAll(async () => {
  api = await createHarness();
  ids.eu = await make(api, "/api/dcim/regions/", { name: "Europe", slug: "eu" });
  ids.de = await make(api, "/api/dcim/regions/", { name: "Germany", slug: "de", parent: ids.eu });
  ids.fra = await make(api, "/api/dcim/sites/", { name: "FRA1", slug: "fra1", region: ids.de });
  ids.ams = await make(api, "/api/dcim/sites/", { name: "AMS1", slug: "ams1" });
  ids.hall = await make(api, "/api/dcim/locations/", { name: "Hall 1", slug: "hall-1", site: ids.ams });
  ids.hall2 = await make(api, "/api/dcim/locations/", { name: "Hall 2", slug: "hall-2", site: ids.ams });
  ids.vmware = await make(api, "/api/virtualization/cluster-types/", { name: "VMware", slug: "vmware" });
  ids.prod = await make(api, "/api/virtualization/cluster-groups/", { name: "Prod", slug: "prod" });
  ids.fraCluster = await make(api, CLUSTERS, {
    name: "fra-c1",
    type: ids.vmware,
    group: ids.prod,
    scope_type: "dcim.site",
    scope_id: ids.fra,
  });
  ids.hallCluster = await make(api, CLUSTERS, { name: "ams-hall1", type: ids.vmware, scope_type: "dcim.location", scope_id: ids.hall });
  ids.euCluster = await make(api, CLUSTERS, { name: "eu-wide", type: ids.vmware, scope_type: "dcim.region", scope_id: ids.eu });
  ids.maker = await make(api, "/api/dcim/manufacturers/", { name: "Dell", slug: "dell" });
  ids.r640 = await make(api, "/api/dcim/device-types/", { manufacturer: ids.maker, model: "R640", slug: "r640" });
  ids.hostRole = await make(api, "/api/dcim/device-roles/", { name: "Host", slug: "host", vm_role: false });
  ids.vmRole = await make(api, "/api/dcim/device-roles/", { name: "Server", slug: "server" });
  ids.linux = await make(api, "/api/dcim/platforms/", { name: "Linux", slug: "linux" });
  ids.acme = await make(api, "/api/tenancy/tenants/", { name: "Acme", slug: "acme" });
  ids.host1 = await make(api, "/api/dcim/devices/", {
    name: "host1",
    device_type: ids.r640,
    role: ids.hostRole,
    site: ids.fra,
    cluster: ids.fraCluster,
  });
  ids.host2 = await make(api, "/api/dcim/devices/", { name: "host2", device_type: ids.r640, role: ids.hostRole, site: ids.fra });
});
afterAll(() => api.close());

describe("virtual machine placement", () => {
  it("needs a site or a cluster", async () => {
    const reply = await api.post(VMS, { name: "nowhere" });
    expect(reply).toMatchObject({ status: 400, body: { cluster: ["A virtual machine must be assigned to a site and/or cluster."] } });
  });

  it("takes the site of its cluster's scope when given none, a location's site included", async () => {
    const bySite = await api.post(VMS, { name: "web1", cluster: ids.fraCluster });
    expect(bySite.status, bySite.text).toBe(201);
    expect(bySite.body.site).toMatchObject({ id: ids.fra, slug: "fra1" });
    const byLocation = await api.post(VMS, { name: "web2", cluster: { name: "ams-hall1" } });
    expect(byLocation.body.site).toMatchObject({ id: ids.ams });
    const byRegion = await api.post(VMS, { name: "web3", cluster: ids.euCluster });
    expect(byRegion.body.site).toBeNull();
    await api.delete(
      VMS,
      [bySite, byLocation, byRegion].map((r) => ({ id: r.body.id })),
    );
  });

  it("refuses a site other than the one its cluster is scoped to", async () => {
    const reply = await api.post(VMS, { name: "lost", site: ids.ams, cluster: ids.fraCluster });
    expect(reply).toMatchObject({ status: 400, body: { cluster: ["The selected cluster (fra-c1) is not assigned to this site (AMS1)."] } });
    const fine = await api.post(VMS, { name: "ok", site: ids.ams, cluster: ids.euCluster });
    expect(fine.status, fine.text).toBe(201);
    // A later move of the site is checked against the stored cluster.
    const moved = await api.patch(vm(fine.body.id), { cluster: ids.fraCluster });
    expect(moved.status).toBe(400);
    expect(moved.body.cluster[0]).toContain("is not assigned to this site (AMS1)");
    await api.delete(vm(fine.body.id));
  });

  it("accepts a host device only within its cluster", async () => {
    const alone = await api.post(VMS, { name: "h1", site: ids.fra, device: ids.host1 });
    expect(alone).toMatchObject({ status: 400, body: { device: ["Must specify a cluster when assigning a host device."] } });
    const stranger = await api.post(VMS, { name: "h2", cluster: ids.fraCluster, device: ids.host2 });
    expect(stranger).toMatchObject({
      status: 400,
      body: { device: ["The selected device (host2) is not assigned to this cluster (fra-c1)."] },
    });
    const hosted = await api.post(VMS, { name: "h3", cluster: ids.fraCluster, device: { name: "host1" } });
    expect(hosted.status, hosted.text).toBe(201);
    expect(hosted.body.device).toMatchObject({ id: ids.host1, name: "host1" });
    // A host that hosts a VM cannot be deleted.
    expect((await api.delete(`/api/dcim/devices/${ids.host1}/`)).status).toBe(409);
    await api.delete(vm(hosted.body.id));
  });

  it("accepts only a device role meant for virtual machines", async () => {
    const reply = await api.post(VMS, { name: "r1", site: ids.fra, role: ids.hostRole });
    expect(reply).toMatchObject({ status: 400, body: { role: [`device role instance with id ${ids.hostRole} is not a valid choice.`] } });
    const fine = await api.post(VMS, { name: "r1", site: ids.fra, role: ids.vmRole, platform: ids.linux, tenant: ids.acme });
    expect(fine.body.role).toMatchObject({ id: ids.vmRole, slug: "server" });
    await api.delete(vm(fine.body.id));
  });

  it("aligns the errors of a bulk create with its items and writes none", async () => {
    const reply = await api.post(VMS, [
      { name: "b1", site: ids.fra },
      { name: "b2" },
      { name: "b3", cluster: ids.fraCluster, site: ids.ams },
    ]);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual([
      {},
      { cluster: ["A virtual machine must be assigned to a site and/or cluster."] },
      { cluster: ["The selected cluster (fra-c1) is not assigned to this site (AMS1)."] },
    ]);
    expect((await api.get(`${VMS}?name=b1`)).body.count).toBe(0);
  });
});

describe("virtual machine names", () => {
  it("are unique per cluster and tenant, whatever their case; VMs without a cluster never collide", async () => {
    const first = await make(api, VMS, { name: "db1", cluster: ids.fraCluster });
    const twin = await api.post(VMS, { name: "DB1", cluster: ids.fraCluster });
    expect(twin).toMatchObject({ status: 400, body: { __all__: ["Virtual machine name must be unique per cluster."] } });
    const otherTenant = await make(api, VMS, { name: "db1", cluster: ids.fraCluster, tenant: ids.acme });
    const otherCluster = await make(api, VMS, { name: "db1", cluster: ids.euCluster });
    const loose = await make(api, VMS, { name: "db1", site: ids.ams });
    const loose2 = await make(api, VMS, { name: "db1", site: ids.ams });
    await api.delete(
      VMS,
      [first, otherTenant, otherCluster, loose, loose2].map((id) => ({ id })),
    );
  });
});

describe("vcpus", () => {
  it("is a decimal with two places, at least 0.01", async () => {
    const errors = async (vcpus: unknown) => (await api.post(VMS, { name: "cpu", site: ids.fra, vcpus })).body.vcpus;
    expect(await errors(1.234)).toEqual(["Ensure that there are no more than 2 decimal places."]);
    expect(await errors(1234567)).toEqual(["Ensure that there are no more than 6 digits in total."]);
    expect(await errors(10000.5)).toEqual(["Ensure that there are no more than 4 digits before the decimal point."]);
    expect(await errors(0)).toEqual(["Ensure this value is greater than or equal to 0.01."]);
    expect(await errors("two")).toEqual(["A valid number is required."]);
    const made = await api.post(VMS, { name: "cpu", site: ids.fra, vcpus: "0.25" });
    expect(made.body.vcpus).toBe(0.25);
    await api.delete(vm(made.body.id));
  });
});

describe("cluster and site figures", () => {
  it("count VMs and sum their vcpus, memory and disk, following every create, update and delete", async () => {
    const cluster = await make(api, CLUSTERS, { name: "figures", type: ids.vmware, scope_type: "dcim.site", scope_id: ids.ams });
    const figures = async () => {
      const c = (await api.get(`${CLUSTERS}${cluster}/`)).body;
      return [c.virtualmachine_count, c.allocated_vcpus, c.allocated_memory, c.allocated_disk];
    };
    expect(await figures()).toEqual([0, null, null, null]);
    const made = await api.post(VMS, [
      { name: "f1", cluster, vcpus: 1.5, memory: 1024, disk: 10 },
      { name: "f2", cluster, vcpus: 0.25, memory: 2048 },
    ]);
    expect(await figures()).toEqual([2, 1.75, 3072, 10]);
    await api.patch(vm(made.body[1].id), { vcpus: 4, disk: 5 });
    expect(await figures()).toEqual([2, 5.5, 3072, 15]);
    await api.patch(vm(made.body[0].id), { cluster: null });
    expect(await figures()).toEqual([1, 4, 2048, 5]);
    expect((await api.get(`${CLUSTERS}${cluster}/?brief=1`)).body).toMatchObject({ name: "figures", virtualmachine_count: 1 });
    const site = (await api.get(`/api/dcim/sites/${ids.ams}/`)).body;
    expect(site.virtualmachine_count).toBe(2);
    await api.delete(vm(made.body[1].id));
    expect(await figures()).toEqual([0, null, null, null]);
    await api.delete(vm(made.body[0].id));
    expect((await api.get(`/api/dcim/sites/${ids.ams}/`)).body.virtualmachine_count).toBe(0);
    await api.delete(`${CLUSTERS}${cluster}/`);
  });

  it("count a role's and a platform's VMs", async () => {
    const made = await make(api, VMS, { name: "counted", site: ids.fra, role: ids.vmRole, platform: ids.linux });
    expect((await api.get(`/api/dcim/device-roles/${ids.vmRole}/?brief=1`)).body).toMatchObject({
      device_count: 0,
      virtualmachine_count: 1,
    });
    expect((await api.get(`/api/dcim/platforms/${ids.linux}/`)).body.virtualmachine_count).toBe(1);
    await api.delete(vm(made));
  });
});

describe("virtual disks", () => {
  it("keep the VM's disk at their total size, and a VM's disk must then match it", async () => {
    const machine = await make(api, VMS, { name: "disks", site: ids.fra, disk: 999 });
    const disks = await api.post(DISKS, [
      { virtual_machine: machine, name: "root", size: 20_000 },
      { virtual_machine: { name: "disks" }, name: "data", size: 100_000 },
    ]);
    expect(disks.status, disks.text).toBe(201);
    expect(disks.body[1]).toMatchObject({ virtual_machine: { id: machine, name: "disks" }, name: "data", size: 100_000 });
    const read = (await api.get(vm(machine))).body;
    expect([read.disk, read.virtual_disk_count]).toEqual([120_000, 2]);
    const wrong = await api.patch(vm(machine), { disk: 5 });
    expect(wrong).toMatchObject({
      status: 400,
      body: { disk: ["The specified disk size (5) must match the aggregate size of assigned virtual disks (120000)."] },
    });
    const cleared = await api.patch(vm(machine), { disk: null });
    expect(cleared.body.disk).toBe(120_000);
    await api.patch(`${DISKS}${disks.body[0].id}/`, { size: 30_000 });
    expect((await api.get(vm(machine))).body.disk).toBe(130_000);
    await api.delete(`${DISKS}${disks.body[1].id}/`);
    expect((await api.get(vm(machine))).body.disk).toBe(30_000);
    const twin = await api.post(DISKS, { virtual_machine: machine, name: "root", size: 1 });
    expect(twin).toMatchObject({ status: 400, body: { __all__: ["Virtual disk with this Virtual machine and Name already exists."] } });
    expect((await api.get(`${DISKS}?virtual_machine_id=${machine}&size__gte=30000`)).body.count).toBe(1);
    expect((await api.get(`${DISKS}?virtual_machine=disks`)).body.count).toBe(1);
    // Deleting the VM deletes its disks.
    expect((await api.delete(vm(machine))).status).toBe(204);
    expect((await api.get(DISKS)).body.count).toBe(0);
  });
});

describe("VM interfaces", () => {
  let web: number;
  let other: number;
  beforeAll(async () => {
    web = await make(api, VMS, { name: "iface-web", site: ids.fra });
    other = await make(api, VMS, { name: "iface-other", site: ids.fra });
  });

  it("take a parent and a bridge only from the same VM, never themselves", async () => {
    const bond = await make(api, IFACES, { virtual_machine: web, name: "bond0" });
    const foreign = await make(api, IFACES, { virtual_machine: other, name: "eth0" });
    const child = await api.post(IFACES, { virtual_machine: web, name: "bond0.10", parent: bond, bridge: bond, mode: "access" });
    expect(child.status, child.text).toBe(201);
    expect(child.body.parent).toMatchObject({ id: bond, name: "bond0", virtual_machine: { id: web, name: "iface-web" } });
    expect(child.body.mode).toEqual({ value: "access", label: "Access" });
    const wrongParent = await api.post(IFACES, { virtual_machine: web, name: "x", parent: foreign });
    expect(wrongParent).toMatchObject({
      status: 400,
      body: { parent: ["The selected parent interface (eth0) belongs to a different virtual machine (iface-other)."] },
    });
    const wrongBridge = await api.patch(`${IFACES}${child.body.id}/`, { bridge: foreign });
    expect(wrongBridge.body).toEqual({
      bridge: ["The selected bridge interface (eth0) belongs to a different virtual machine (iface-other)."],
    });
    expect((await api.patch(`${IFACES}${bond}/`, { parent: bond })).body).toEqual({ parent: ["An interface cannot be its own parent."] });
    expect((await api.patch(`${IFACES}${bond}/`, { bridge: bond })).body).toEqual({
      bridge: ["An interface cannot be bridged to itself."],
    });
    // Moving the child to the other VM leaves its parent behind: refused.
    const moved = await api.patch(`${IFACES}${child.body.id}/`, { virtual_machine: other });
    expect(moved.body.parent[0]).toContain("belongs to a different virtual machine (iface-web)");
    const twin = await api.post(IFACES, { virtual_machine: web, name: "bond0" });
    expect(twin).toMatchObject({ status: 400, body: { __all__: ["Interface with this Virtual machine and Name already exists."] } });
    expect((await api.get(vm(web))).body.interface_count).toBe(2);
  });

  it("show their MAC addresses, and take as primary only one assigned to them", async () => {
    const eth = await make(api, IFACES, { virtual_machine: web, name: "eth9" });
    const mac = await api.post("/api/dcim/mac-addresses/", {
      mac_address: "52:54:00:aa:bb:cc",
      assigned_object_type: "virtualization.vminterface",
      assigned_object_id: eth,
    });
    expect(mac.status, mac.text).toBe(201);
    expect(mac.body.assigned_object).toMatchObject({ id: eth, name: "eth9", virtual_machine: { id: web } });
    const loose = await make(api, "/api/dcim/mac-addresses/", { mac_address: "52:54:00:00:00:01" });
    const refused = await api.patch(`${IFACES}${eth}/`, { primary_mac_address: loose });
    expect(refused.body).toEqual({ primary_mac_address: ["MAC address 52:54:00:00:00:01 is not assigned to this interface."] });
    const chosen = await api.patch(`${IFACES}${eth}/`, { primary_mac_address: mac.body.id });
    expect(chosen.status, chosen.text).toBe(200);
    expect(chosen.body.mac_address).toBe("52:54:00:AA:BB:CC");
    expect(chosen.body.primary_mac_address).toMatchObject({ id: mac.body.id, mac_address: "52:54:00:AA:BB:CC" });
    expect(chosen.body.mac_addresses).toEqual([expect.objectContaining({ id: mac.body.id, mac_address: "52:54:00:AA:BB:CC" })]);
    expect((await api.get(`${IFACES}?mac_address=52:54:00:aa:bb:cc`)).body.results.map((i: any) => i.id)).toEqual([eth]);
    expect((await api.get(`${VMS}?mac_address=52:54:00:AA:BB:CC`)).body.results.map((v: any) => v.id)).toEqual([web]);
    // Deleting the interface clears the MAC address's assignment.
    await api.delete(`${IFACES}${eth}/`);
    expect((await api.get(`/api/dcim/mac-addresses/${mac.body.id}/`)).body.assigned_object).toBeNull();
  });
});

describe("a device's cluster", () => {
  it("must share the site, and the location, its scope names", async () => {
    const base = { device_type: ids.r640, role: ids.hostRole };
    const wrongSite = await api.post("/api/dcim/devices/", { ...base, name: "d1", site: ids.ams, cluster: ids.fraCluster });
    expect(wrongSite).toMatchObject({ status: 400, body: { cluster: ["The assigned cluster belongs to a different site (FRA1)"] } });
    const noLocation = await api.post("/api/dcim/devices/", { ...base, name: "d2", site: ids.ams, cluster: ids.hallCluster });
    expect(noLocation).toMatchObject({ status: 400, body: { cluster: ["The assigned cluster belongs to a different location (Hall 1)"] } });
    const fine = await api.post("/api/dcim/devices/", { ...base, name: "d3", site: ids.ams, location: ids.hall, cluster: ids.hallCluster });
    expect(fine.status, fine.text).toBe(201);
    const moved = await api.patch(`/api/dcim/devices/${fine.body.id}/`, { location: ids.hall2 });
    expect(moved.body).toEqual({ cluster: ["The assigned cluster belongs to a different location (Hall 1)"] });
    const regional = await api.post("/api/dcim/devices/", { ...base, name: "d4", site: ids.ams, cluster: ids.euCluster });
    expect(regional.status, regional.text).toBe(201);
    await api.delete("/api/dcim/devices/", [{ id: fine.body.id }, { id: regional.body.id }]);
  });

  it("keeps a cluster from moving to a scope its host devices are outside of", async () => {
    const cluster = await make(api, CLUSTERS, { name: "movable", type: ids.vmware });
    const host = await make(api, "/api/dcim/devices/", {
      name: "mover",
      device_type: ids.r640,
      role: ids.hostRole,
      site: ids.ams,
      location: ids.hall,
      cluster,
    });
    const away = await api.patch(`${CLUSTERS}${cluster}/`, { scope_type: "dcim.site", scope_id: ids.fra });
    expect(away).toMatchObject({
      status: 400,
      body: { scope: ["1 devices are assigned as hosts for this cluster but are not in site FRA1"] },
    });
    const otherHall = await api.patch(`${CLUSTERS}${cluster}/`, { scope_type: "dcim.location", scope_id: ids.hall2 });
    expect(otherHall.body).toEqual({ scope: ["1 devices are assigned as hosts for this cluster but are not in location Hall 2"] });
    const home = await api.patch(`${CLUSTERS}${cluster}/`, { scope_type: "dcim.location", scope_id: ids.hall });
    expect(home.status, home.text).toBe(200);
    await api.delete(`/api/dcim/devices/${host}/`);
    await api.delete(`${CLUSTERS}${cluster}/`);
  });
});

describe("filters", () => {
  beforeAll(async () => {
    const made = await api.post(VMS, [
      {
        name: "f-a",
        cluster: ids.fraCluster,
        role: ids.vmRole,
        platform: ids.linux,
        tenant: ids.acme,
        vcpus: 2,
        memory: 4096,
        status: "planned",
        local_context_data: { a: 1 },
      },
      { name: "f-b", cluster: ids.hallCluster, vcpus: 8, memory: 16384, disk: 50 },
      { name: "f-c", site: ids.ams },
    ]);
    expect(made.status, made.text).toBe(201);
    ids.fa = made.body[0].id;
    await make(api, IFACES, { virtual_machine: ids.fa, name: "eth0" });
    await make(api, IFACES, { virtual_machine: ids.fa, name: "eth1" });
    await make(api, DISKS, { virtual_machine: made.body[1].id, name: "root", size: 50 });
  });
  const names = async (query: string) => {
    const reply = await api.get(`${VMS}?${query}&name__isw=f-&limit=0`);
    expect(reply.status, reply.text).toBe(200);
    return reply.body.results.map((v: any) => v.name).sort();
  };

  it("find virtual machines by cluster, its type and group, site, region tree, role, platform, tenant and status", async () => {
    expect(await names("cluster=fra-c1")).toEqual(["f-a"]);
    expect(await names(`cluster_id=${ids.hallCluster}`)).toEqual(["f-b"]);
    expect(await names("cluster_type=vmware")).toEqual(["f-a", "f-b"]);
    expect(await names("cluster_group=prod")).toEqual(["f-a"]);
    expect(await names(`cluster_group_id=${ids.prod}`)).toEqual(["f-a"]);
    expect(await names("site=ams1")).toEqual(["f-b", "f-c"]);
    expect(await names("region=eu")).toEqual(["f-a"]);
    expect(await names(`region_id=${ids.de}`)).toEqual(["f-a"]);
    expect(await names("role=server")).toEqual(["f-a"]);
    expect(await names("platform=linux")).toEqual(["f-a"]);
    expect(await names("tenant=acme")).toEqual(["f-a"]);
    expect(await names("status=planned")).toEqual(["f-a"]);
    expect(await names("cluster_id=null")).toEqual(["f-c"]);
    expect((await api.get(`${VMS}?cluster=nope`)).body).toEqual({
      cluster: ["Select a valid choice. nope is not one of the available choices."],
    });
  });

  it("compare vcpus, memory, disk and the interface and disk counts", async () => {
    expect(await names("vcpus__gte=4")).toEqual(["f-b"]);
    expect(await names("vcpus=2")).toEqual(["f-a"]);
    expect(await names("memory__lt=8000")).toEqual(["f-a"]);
    expect(await names("disk=50")).toEqual(["f-b"]);
    expect(await names("interface_count__gte=2")).toEqual(["f-a"]);
    expect(await names("interface_count=0")).toEqual(["f-b", "f-c"]);
    expect(await names("virtual_disk_count=1")).toEqual(["f-b"]);
    expect(await names("local_context_data=true")).toEqual(["f-a"]);
    expect(await names("local_context_data=false")).toEqual(["f-b", "f-c"]);
    expect((await api.get(`${VMS}?interface_count=many`)).body).toEqual({ interface_count: ["Enter a number."] });
  });

  it("find interfaces by VM name and id and by cluster, and clusters by the place of their scope", async () => {
    const ifaces = async (query: string) => (await api.get(`${IFACES}?${query}`)).body.results.map((i: any) => i.name).sort();
    expect(await ifaces("virtual_machine=f-a")).toEqual(["eth0", "eth1"]);
    expect(await ifaces(`virtual_machine_id=${ids.fa}&name=eth1`)).toEqual(["eth1"]);
    expect(await ifaces("cluster=fra-c1")).toEqual(["eth0", "eth1"]);
    expect(await ifaces(`cluster_id=${ids.hallCluster}`)).toEqual([]);
    const clusters = async (query: string) => (await api.get(`${CLUSTERS}?${query}`)).body.results.map((c: any) => c.name).sort();
    expect(await clusters(`site_id=${ids.ams}`)).toEqual(["ams-hall1"]);
    expect(await clusters("site=fra1")).toEqual(["fra-c1"]);
    expect(await clusters("region=eu")).toEqual(["eu-wide", "fra-c1"]);
    expect(await clusters("location=hall-1")).toEqual(["ams-hall1"]);
  });
});
