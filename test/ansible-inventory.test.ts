/**
 * Ansible's dynamic inventory (`netbox.netbox.nb_inventory`, the collection Debian's `ansible`
 * ships) pointed at the service started as `npm start` starts it: the plugin reads our OpenAPI
 * document to learn the device and VM filters, then pages through devices, VMs, interfaces, IP
 * addresses, services and config contexts as it does against NetBox.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startProcess, stop, tempDirs, type ServiceProcess } from "./support/processes.ts";

const ANSIBLE_INVENTORY = ["/usr/bin/ansible-inventory", "/usr/local/bin/ansible-inventory"].find((p) => existsSync(p));
// CI installs Debian's ansible (.ci/run); a developer machine without it skips these tests, loudly.
const run = ANSIBLE_INVENTORY || process.env.CI ? describe : describe.skip;
if (!ANSIBLE_INVENTORY) console.warn("ansible-inventory not found: apt-get install ansible python3-pynetbox python3-tz");

const TOKEN = "0123456789abcdef0123456789abcdef01234567";
const dirs = tempDirs();
let service: ServiceProcess;
let dir: string;

async function post(path: string, body: unknown): Promise<any> {
  const reply = await fetch(`${service.url}${path}`, {
    method: "POST",
    headers: { Authorization: `Token ${TOKEN}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await reply.text();
  if (reply.status !== 201) throw new Error(`${path}: ${reply.status} ${text}`);
  return JSON.parse(text);
}

async function patch(path: string, body: unknown): Promise<void> {
  const reply = await fetch(`${service.url}${path}`, {
    method: "PATCH",
    headers: { Authorization: `Token ${TOKEN}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (reply.status !== 200) throw new Error(`${path}: ${reply.status} ${await reply.text()}`);
}

/** Runs `ansible-inventory --list` on a plugin configuration; resolves with the inventory and the warnings. */
function inventory(name: string, config: string): Promise<{ inventory: any; stderr: string }> {
  const file = join(dir, `${name}.netbox.yml`);
  writeFileSync(file, `plugin: netbox.netbox.nb_inventory\nvalidate_certs: false\n${config}`);
  const env = {
    ...process.env,
    NETBOX_API: service.url,
    NETBOX_TOKEN: TOKEN,
    // The plugin caches our document in Ansible's temp folder: one of its own per test run.
    ANSIBLE_LOCAL_TEMP: join(dir, "ansible-tmp"),
    ANSIBLE_HOME: join(dir, "ansible-home"),
    ANSIBLE_NOCOLOR: "1",
  };
  return new Promise((resolve, reject) => {
    execFile(
      ANSIBLE_INVENTORY ?? "ansible-inventory",
      ["-i", file, "--list"],
      { env, timeout: 60_000, maxBuffer: 64 << 20 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`${error.message}\n${stderr}`));
        resolve({ inventory: JSON.parse(stdout), stderr });
      },
    );
  });
}

const hostsOf = (inv: any, group: string): string[] => [...(inv[group]?.hosts ?? [])].sort();

run("Ansible's nb_inventory plugin", () => {
  beforeAll(async () => {
    dir = dirs.make();
    service = await startProcess({
      LIBSQL_URL: `file:${dir}/inventory.db`,
      HOST: "127.0.0.1",
      PORT: "0",
      SUPERUSER_NAME: "admin",
      SUPERUSER_PASSWORD: "Admin-password-1",
      SUPERUSER_API_TOKEN: TOKEN,
    });
    const tenant = await post("/api/tenancy/tenants/", { name: "Acme", slug: "acme" });
    const region = await post("/api/dcim/regions/", { name: "Europe", slug: "eu" });
    const dc1 = await post("/api/dcim/sites/", { name: "DC1", slug: "dc1", region: region.id, tenant: tenant.id });
    const dc2 = await post("/api/dcim/sites/", { name: "DC2", slug: "dc2" });
    const rack = await post("/api/dcim/racks/", { name: "R1", site: dc1.id });
    const juniper = await post("/api/dcim/manufacturers/", { name: "Juniper", slug: "juniper" });
    const type = await post("/api/dcim/device-types/", { model: "MX204", slug: "mx204", manufacturer: juniper.id });
    const router = await post("/api/dcim/device-roles/", { name: "Router", slug: "router", color: "ff0000" });
    const junos = await post("/api/dcim/platforms/", { name: "Junos", slug: "junos" });
    const prod = await post("/api/extras/tags/", { name: "Prod", slug: "prod" });
    const r1 = await post("/api/dcim/devices/", {
      name: "r1",
      site: dc1.id,
      rack: rack.id,
      device_type: type.id,
      role: router.id,
      platform: junos.id,
      tenant: tenant.id,
      tags: [prod.id],
    });
    await post("/api/dcim/devices/", { name: "r2", site: dc2.id, device_type: type.id, role: router.id, status: "planned" });
    await post("/api/dcim/devices/", { name: "r3", site: dc1.id, device_type: type.id, role: router.id, tenant: tenant.id });
    const xe = await post("/api/dcim/interfaces/", { device: r1.id, name: "xe-0/0/0", type: "10gbase-x-sfpp" });
    const ip = await post("/api/ipam/ip-addresses/", {
      address: "192.0.2.1/24",
      assigned_object_type: "dcim.interface",
      assigned_object_id: xe.id,
    });
    await patch(`/api/dcim/devices/${r1.id}/`, { primary_ip4: ip.id });
    await post("/api/ipam/services/", { device: r1.id, name: "ssh", protocol: "tcp", ports: [22] });
    await post("/api/extras/config-contexts/", { name: "ntp", data: { ntp: ["192.0.2.123"] }, sites: [dc1.id] });
    const kvm = await post("/api/virtualization/cluster-types/", { name: "KVM", slug: "kvm" });
    const c1 = await post("/api/virtualization/clusters/", { name: "C1", type: kvm.id });
    const vm1 = await post("/api/virtualization/virtual-machines/", {
      name: "vm1",
      cluster: c1.id,
      role: router.id,
      platform: junos.id,
      tenant: tenant.id,
    });
    await post("/api/virtualization/virtual-machines/", { name: "vm2", tenant: tenant.id, site: dc2.id });
    const eth0 = await post("/api/virtualization/interfaces/", { virtual_machine: vm1.id, name: "eth0" });
    const vmIp = await post("/api/ipam/ip-addresses/", {
      address: "198.51.100.5/24",
      assigned_object_type: "virtualization.vminterface",
      assigned_object_id: eth0.id,
    });
    await patch(`/api/virtualization/virtual-machines/${vm1.id}/`, { primary_ip4: vmIp.id });
  });
  afterAll(async () => {
    if (service) await stop(service.child);
    dirs.cleanup();
  });

  it("lists devices and VMs with their groups, ansible_host, interfaces, IP addresses, services, config context and composed variables", async () => {
    const { inventory: inv, stderr } = await inventory(
      "all",
      [
        "config_context: true",
        "interfaces: true",
        "services: true",
        "group_by: [sites, device_roles, platforms, tenants, tags, racks, status, cluster]",
        "compose:",
        "  mgmt_address: primary_ip4.address",
        "  site_slug: site.slug",
        "",
      ].join("\n"),
    );
    expect(stderr).not.toMatch(/Failed to parse|not in \[/);
    const vars = inv._meta.hostvars;
    expect(Object.keys(vars).sort()).toEqual(["r1", "r2", "r3", "vm1", "vm2"]);
    expect(hostsOf(inv, "sites_dc1")).toEqual(["r1", "r3"]);
    expect(hostsOf(inv, "sites_dc2")).toEqual(["r2", "vm2"]);
    expect(hostsOf(inv, "device_roles_router")).toEqual(["r1", "r2", "r3", "vm1"]);
    expect(hostsOf(inv, "platforms_junos")).toEqual(["r1", "vm1"]);
    expect(hostsOf(inv, "tenants_acme")).toEqual(["r1", "r3", "vm1", "vm2"]);
    expect(hostsOf(inv, "tags_prod")).toEqual(["r1"]);
    expect(hostsOf(inv, "racks_R1")).toEqual(["r1"]);
    expect(hostsOf(inv, "status_active")).toEqual(["r1", "r3", "vm1", "vm2"]);
    expect(hostsOf(inv, "status_planned")).toEqual(["r2"]);
    expect(hostsOf(inv, "cluster_C1")).toEqual(["vm1"]);

    const r1 = vars.r1;
    expect(r1.ansible_host).toBe("192.0.2.1");
    expect(vars.vm1.ansible_host).toBe("198.51.100.5");
    expect(vars.r2.ansible_host).toBeUndefined();
    expect(r1.interfaces.map((i: any) => [i.name, i.ip_addresses.map((a: any) => a.address)])).toEqual([["xe-0/0/0", ["192.0.2.1/24"]]]);
    expect(vars.vm1.interfaces.map((i: any) => [i.name, i.ip_addresses.map((a: any) => a.address)])).toEqual([
      ["eth0", ["198.51.100.5/24"]],
    ]);
    expect(r1.services.map((s: any) => [s.name, s.protocol.value, s.ports])).toEqual([["ssh", "tcp", [22]]]);
    expect(r1.config_context).toEqual([{ ntp: ["192.0.2.123"] }]);
    expect(vars.r2.config_context).toEqual([{}]);
    expect(r1.mgmt_address).toBe("192.0.2.1/24");
    expect([r1.site_slug, vars.r2.site_slug]).toEqual(["dc1", "dc2"]);
    expect([r1.regions, r1.manufacturers, r1.device_types, r1.is_virtual, vars.vm1.is_virtual]).toEqual([
      ["eu"],
      ["juniper"],
      ["mx204"],
      false,
      true,
    ]);
    expect(vars.vm1.cluster).toBe("C1");
  });

  it("takes query_filters, device_query_filters and vm_query_filters the document lists, and they filter; fetch_all: false asks per host", async () => {
    const { inventory: inv, stderr } = await inventory(
      "filtered",
      [
        "fetch_all: false",
        "interfaces: true",
        "query_filters:",
        "  - tenant: acme",
        "device_query_filters:",
        "  - has_primary_ip: 'true'",
        "vm_query_filters:",
        "  - cluster: C1",
        "group_by: [sites]",
        "",
      ].join("\n"),
    );
    // A filter the plugin does not find in our document is dropped with this warning.
    expect(stderr).not.toMatch(/not in \[/);
    expect(Object.keys(inv._meta.hostvars).sort()).toEqual(["r1", "vm1"]);
    expect(inv._meta.hostvars.r1.interfaces.map((i: any) => i.ip_addresses.map((a: any) => a.address))).toEqual([["192.0.2.1/24"]]);
  });
});
