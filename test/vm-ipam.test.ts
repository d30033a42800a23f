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
