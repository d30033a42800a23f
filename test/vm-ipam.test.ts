import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "./support/harness.ts";
import { make } from "./contract/fixtures.ts";

let api: Harness;
const ids: Record<string, number> = {};

beforeAll(async () => {
  api = await createHarness();
  ids.type = await make(api, "/api/virtualization/cluster-types/", { name: "KVM", slug: "kvm" });
  ids.cluster = await make(api, "/api/virtualization/clusters/", { name: "c1", type: ids.type });
  ids.vm1 = await make(api, "/api/virtualization/virtual-machines/", { name: "vm1", cluster: ids.cluster });
  ids.vm2 = await make(api, "/api/virtualization/virtual-machines/", { name: "vm2", cluster: ids.cluster });
  ids.eth0 = await make(api, "/api/virtualization/interfaces/", { virtual_machine: ids.vm1, name: "eth0" });
  ids.other = await make(api, "/api/virtualization/interfaces/", { virtual_machine: ids.vm2, name: "eth0" });
});
afterAll(() => api.close());

describe("IP addresses on virtual machines", () => {
  it("are assigned to VM interfaces, counted there, and may be a VM's primary IPs", async () => {
    const v4 = await api.post("/api/ipam/ip-addresses/", {
      address: "192.0.2.10/24",
      assigned_object_type: "virtualization.vminterface",
      assigned_object_id: ids.eth0,
    });
    expect(v4.status, v4.text).toBe(201);
    expect(v4.body.assigned_object).toMatchObject({ id: ids.eth0, name: "eth0", virtual_machine: { id: ids.vm1 } });
    expect((await api.get(`/api/virtualization/interfaces/${ids.eth0}/`)).body.count_ipaddresses).toBe(1);
    const v6 = await make(api, "/api/ipam/ip-addresses/", {
      address: "2001:db8::10/64",
      assigned_object_type: "virtualization.vminterface",
      assigned_object_id: ids.eth0,
    });
    const set = await api.patch(`/api/virtualization/virtual-machines/${ids.vm1}/`, { primary_ip4: v4.body.id, primary_ip6: v6 });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({ primary_ip4: { id: v4.body.id }, primary_ip6: { id: v6 }, primary_ip: { id: v6 } });
    expect((await api.get(`/api/ipam/ip-addresses/?virtual_machine_id=${ids.vm1}`)).body.count).toBe(2);
  });

  it("refuse a primary IP of another VM, or of the wrong family", async () => {
    const foreign = await make(api, "/api/ipam/ip-addresses/", {
      address: "198.51.100.5/24",
      assigned_object_type: "virtualization.vminterface",
      assigned_object_id: ids.other,
    });
    const refused = await api.patch(`/api/virtualization/virtual-machines/${ids.vm1}/`, { primary_ip4: foreign });
    expect(refused).toMatchObject({
      status: 400,
      body: { primary_ip4: ["The specified IP address (198.51.100.5/24) is not assigned to this virtual machine."] },
    });
    const v6 = (await api.get(`/api/ipam/ip-addresses/?address=2001:db8::10/64`)).body.results[0].id;
    expect((await api.patch(`/api/virtualization/virtual-machines/${ids.vm1}/`, { primary_ip4: v6 })).status).toBe(400);
  });
});

describe("services on virtual machines", () => {
  it("belong to a device or a virtual machine, exactly one, and filter by either, by port and by address", async () => {
    const ip = await make(api, "/api/ipam/ip-addresses/", {
      address: "192.0.2.20/24",
      assigned_object_type: "virtualization.vminterface",
      assigned_object_id: ids.eth0,
    });
    const ssh = await api.post("/api/ipam/services/", {
      virtual_machine: ids.vm1,
      name: "ssh",
      protocol: "tcp",
      ports: [22],
      ipaddresses: [ip],
    });
    expect(ssh.status, ssh.text).toBe(201);
    expect(ssh.body).toMatchObject({ device: null, virtual_machine: { id: ids.vm1, name: "vm1" }, display: "ssh (TCP/22)" });
    const web = await make(api, "/api/ipam/services/", { virtual_machine: ids.vm2, name: "web", protocol: "tcp", ports: [80, 443] });

    const names = async (query: string) => (await api.get(`/api/ipam/services/?${query}`)).body.results.map((s: any) => s.name);
    expect(await names(`virtual_machine_id=${ids.vm1}`)).toEqual(["ssh"]);
    expect(await names("virtual_machine=vm2")).toEqual(["web"]);
    expect(await names("port=443")).toEqual(["web"]);
    expect(await names("port=22&port=80")).toEqual(["ssh", "web"]);
    expect(await names(`ip_address_id=${ip}`)).toEqual(["ssh"]);

    const neither = await api.post("/api/ipam/services/", { name: "dns", protocol: "udp", ports: [53] });
    expect(neither).toMatchObject({
      status: 400,
      body: { __all__: ["A service must be associated with either a device or a virtual machine."] },
    });
    const both = await api.patch(`/api/ipam/services/${web}/`, { device: await device() });
    expect(both).toMatchObject({
      status: 400,
      body: { __all__: ["A service cannot be associated with both a device and a virtual machine."] },
    });
    const moved = await api.patch(`/api/ipam/services/${web}/`, { virtual_machine: null, device: await device() });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ virtual_machine: null, device: { name: "d1" } });
    // Deleting the virtual machine deletes its services.
    expect((await api.delete(`/api/virtualization/virtual-machines/${ids.vm2}/`)).status).toBe(204);
    expect((await api.get(`/api/ipam/services/${web}/`)).status).toBe(200);
  });
});

let deviceId: number | undefined;
/** One device to move a service to. */
async function device(): Promise<number> {
  if (deviceId) return deviceId;
  const site = await make(api, "/api/dcim/sites/", { name: "s1", slug: "s1" });
  const manufacturer = await make(api, "/api/dcim/manufacturers/", { name: "m1", slug: "m1" });
  const type = await make(api, "/api/dcim/device-types/", { manufacturer, model: "t1", slug: "t1" });
  const role = await make(api, "/api/dcim/device-roles/", { name: "r1", slug: "r1" });
  deviceId = await make(api, "/api/dcim/devices/", { name: "d1", site, device_type: type, role });
  return deviceId;
}
