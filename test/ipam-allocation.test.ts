import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { createHarness, type Driver, type Harness } from "./support/harness.ts";
import { fixtureDevice } from "./contract/shared-inventory.ts";
import { make } from "./contract/fixtures.ts";

const NO_ROOM = { detail: "Insufficient resources are available to satisfy the request" };

describe("available IPs", () => {
  let api: Harness;
  beforeAll(async () => (api = await createHarness()));
  afterAll(() => api.close());
  const free = async (prefix: string, query = "", body: Record<string, unknown> = {}) => {
    const id = await make(api, "/api/ipam/prefixes/", { prefix, ...body });
    return { id, reply: await api.get(`/api/ipam/prefixes/${id}/available-ips/${query}`) };
  };

  it("lists free addresses as a plain list with the parent's mask, from .1, respecting limit", async () => {
    const { id, reply } = await free("192.0.2.0/24", "?limit=3");
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual(["192.0.2.1/24", "192.0.2.2/24", "192.0.2.3/24"].map((address) => ({ family: 4, address, vrf: null })));
    expect((await api.get(`/api/ipam/prefixes/${id}/available-ips/`)).body).toHaveLength(50);
    expect((await api.get(`/api/ipam/prefixes/${id}/available-ips/?limit=0`)).body).toHaveLength(254);
    await api.post("/api/ipam/ip-addresses/", [{ address: "192.0.2.1/24" }, { address: "192.0.2.3/32" }]);
    expect((await api.get(`/api/ipam/prefixes/${id}/available-ips/?limit=2`)).body.map((x: any) => x.address)).toEqual([
      "192.0.2.2/24",
      "192.0.2.4/24",
    ]);
  });

  it("lists every free address for limit=0 where MAX_PAGE_SIZE sets no bound", async () => {
    const unbounded = await createHarness({ MAX_PAGE_SIZE: "0" });
    try {
      const id = await make(unbounded, "/api/ipam/prefixes/", { prefix: "192.0.2.0/23" });
      await unbounded.post("/api/ipam/ip-addresses/", [{ address: "192.0.2.7/23" }]);
      const all = await unbounded.get(`/api/ipam/prefixes/${id}/available-ips/?limit=0`);
      expect(all.status, all.text.slice(0, 200)).toBe(200);
      expect(all.body).toHaveLength(509);
    } finally {
      unbounded.close();
    }
  });

  it("offers every address of /31, /32, /127, /128 and pools, and skips IPv6's first address otherwise", async () => {
    const addresses = async (prefix: string, extra: Record<string, unknown> = {}) =>
      (await free(prefix, "?limit=3", extra)).reply.body.map((x: any) => x.address);
    expect(await addresses("198.51.100.0/31")).toEqual(["198.51.100.0/31", "198.51.100.1/31"]);
    expect(await addresses("198.51.100.9/32")).toEqual(["198.51.100.9/32"]);
    expect(await addresses("198.51.100.16/30", { is_pool: true })).toEqual(["198.51.100.16/30", "198.51.100.17/30", "198.51.100.18/30"]);
    expect(await addresses("198.51.100.32/30")).toEqual(["198.51.100.33/30", "198.51.100.34/30"]);
    expect(await addresses("2001:db8::/64")).toEqual(["2001:db8::1/64", "2001:db8::2/64", "2001:db8::3/64"]);
    expect(await addresses("2001:db8:1::/127")).toEqual(["2001:db8:1::/127", "2001:db8:1::1/127"]);
    expect(await addresses("2001:db8:2::5/128")).toEqual(["2001:db8:2::5/128"]);
  });

  it("skips whole blocks that are full, and sees addresses freed again", async () => {
    const id = await make(api, "/api/ipam/prefixes/", { prefix: "10.50.0.0/22" });
    const fill = Array.from({ length: 600 }, (_, i) => ({ address: `10.50.${Math.floor((i + 1) / 256)}.${(i + 1) % 256}/22` }));
    const filled = await api.post("/api/ipam/ip-addresses/", fill);
    expect(filled.status, filled.text.slice(0, 300)).toBe(201);
    expect((await api.get(`/api/ipam/prefixes/${id}/available-ips/?limit=2`)).body.map((x: any) => x.address)).toEqual([
      "10.50.2.89/22",
      "10.50.2.90/22",
    ]);
    const victim = (await api.get("/api/ipam/ip-addresses/?address=10.50.1.7")).body.results[0];
    await api.delete(`/api/ipam/ip-addresses/${victim.id}/`);
    expect((await api.get(`/api/ipam/prefixes/${id}/available-ips/?limit=1`)).body[0].address).toBe("10.50.1.7/22");
    await api.patch(`/api/ipam/ip-addresses/${(await api.get("/api/ipam/ip-addresses/?address=10.50.0.9")).body.results[0].id}/`, {
      address: "10.50.1.7/22",
    });
    expect((await api.get(`/api/ipam/prefixes/${id}/available-ips/?limit=1`)).body[0].address).toBe("10.50.0.9/22");
  });

  it("reads partly used blocks only as far as enough free addresses are certain, and counts a block at the space's edge as none", async () => {
    const id = await make(api, "/api/ipam/prefixes/", { prefix: "10.51.0.0/22" });
    const taken = [
      ...Array.from({ length: 250 }, (_, i) => `10.51.0.${i + 1}`), // first block (an edge): .251-.255 free
      ...Array.from({ length: 256 }, (_, i) => `10.51.1.${i}`).filter((a) => a !== "10.51.1.100" && a !== "10.51.1.200"), // two free
      ...Array.from({ length: 256 }, (_, i) => `10.51.2.${i}`), // full
      ...Array.from({ length: 10 }, (_, i) => `10.51.3.${i * 2}`), // last block (an edge): the odd ones free
    ];
    const filled = await api.post(
      "/api/ipam/ip-addresses/",
      taken.map((address) => ({ address: `${address}/22` })),
    );
    expect(filled.status, filled.text.slice(0, 300)).toBe(201);
    const first = async (limit: number) =>
      (await api.get(`/api/ipam/prefixes/${id}/available-ips/?limit=${limit}`)).body.map((x: any) => x.address.replace("/22", ""));
    const interior = ["10.51.1.100", "10.51.1.200"];
    const edges = ["10.51.0.251", "10.51.0.252", "10.51.0.253", "10.51.0.254", "10.51.0.255"];
    expect(await first(2)).toEqual(edges.slice(0, 2));
    expect(await first(7)).toEqual([...edges, ...interior]);
    // Counted as 256 - 250, the first block would promise six: it holds five (.0 is the network's).
    expect(await first(8)).toEqual([...edges, ...interior, "10.51.3.1"]);
    expect(await first(10)).toEqual([...edges, ...interior, "10.51.3.1", "10.51.3.3", "10.51.3.5"]);
    // Every free address, to the last but the broadcast address.
    const all = await first(0);
    expect(all).toHaveLength(7 + 256 - 10 - 1);
    expect(all.at(-1)).toBe("10.51.3.254");
  });

  it("counts a global container's addresses in every VRF: a block the VRFs fill together offers nothing", async () => {
    const [red, blue] = [await make(api, "/api/ipam/vrfs/", { name: "Red" }), await make(api, "/api/ipam/vrfs/", { name: "Blue" })];
    const id = await make(api, "/api/ipam/prefixes/", { prefix: "10.52.0.0/23", status: "container" });
    const filled = await api.post("/api/ipam/ip-addresses/", [
      ...Array.from({ length: 128 }, (_, i) => ({ address: `10.52.0.${i}/23`, vrf: red })),
      ...Array.from({ length: 128 }, (_, i) => ({ address: `10.52.0.${128 + i}/23`, vrf: blue })),
      { address: "10.52.0.5/23", vrf: blue }, // the same address in both: still one taken
      { address: "10.52.1.0/23", vrf: red },
      { address: "10.52.1.2/23" },
    ]);
    expect(filled.status, filled.text.slice(0, 300)).toBe(201);
    expect((await api.get(`/api/ipam/prefixes/${id}/available-ips/?limit=3`)).body.map((x: any) => x.address)).toEqual([
      "10.52.1.1/23",
      "10.52.1.3/23",
      "10.52.1.4/23",
    ]);
    // Full blocks in several VRFs, one of them full in both: skipped whole, once.
    const wide = await make(api, "/api/ipam/prefixes/", { prefix: "10.53.0.0/22", status: "container" });
    const fullBlock = (third: number, vrf: number | null) =>
      Array.from({ length: 256 }, (_, i) => ({ address: `10.53.${third}.${i}/22`, vrf }));
    const more = await api.post("/api/ipam/ip-addresses/", [
      ...fullBlock(0, red),
      ...fullBlock(1, red),
      ...fullBlock(1, blue),
      ...fullBlock(2, null),
    ]);
    expect(more.status, more.text.slice(0, 300)).toBe(201);
    expect((await api.get(`/api/ipam/prefixes/${wide}/available-ips/?limit=2`)).body.map((x: any) => x.address)).toEqual([
      "10.53.3.0/22",
      "10.53.3.1/22",
    ]);
    // In one VRF, the other VRF's addresses are free.
    const inRed = await make(api, "/api/ipam/prefixes/", { prefix: "10.52.0.0/24", vrf: red });
    expect((await api.get(`/api/ipam/prefixes/${inRed}/available-ips/?limit=2`)).body.map((x: any) => x.address)).toEqual([
      "10.52.0.128/24",
      "10.52.0.129/24",
    ]);
  });

  it("keeps each block's taken bits equal to its addresses through creates, duplicates, moves between VRFs and deletes", async () => {
    const vrf = await make(api, "/api/ipam/vrfs/", { name: "Bits", enforce_unique: false });
    const expectBitsRight = async () => {
      const { rows } = await sql<{ vrf: number; block: string; used: number; bits: string }>`
        SELECT vrf, block, used, printf('%016x%016x%016x%016x', w0, w1, w2, w3) AS bits FROM ipam_ipblock`.execute(api.db.kysely);
      const addresses = await api.db.kysely.selectFrom("ipam_ipaddress").select(["vrf_id", "address_start"]).execute();
      const wanted = new Map<string, Set<number>>();
      for (const a of addresses) {
        const key = `${a.vrf_id ?? 0} ${a.address_start.slice(0, 31)}`;
        if (!wanted.has(key)) wanted.set(key, new Set());
        wanted.get(key)!.add(Number.parseInt(a.address_start.slice(31), 16));
      }
      const hex = (offsets: Set<number>) =>
        [0, 1, 2, 3]
          .map((w) => [...offsets].filter((o) => o >> 6 === w).reduce((bits, o) => bits | (1n << BigInt(o & 63)), 0n))
          .map((word) => word.toString(16).padStart(16, "0"))
          .join("");
      const held = rows.filter((r) => r.used > 0).map((r) => [`${r.vrf} ${r.block}`, r.used, r.bits]);
      expect(held.sort()).toEqual([...wanted].map(([key, offsets]) => [key, offsets.size, hex(offsets)]).sort());
      expect(rows.filter((r) => r.used === 0).every((r) => /^0+$/.test(r.bits))).toBe(true);
    };
    const made = await api.post("/api/ipam/ip-addresses/", [
      ...[0, 1, 63, 64, 127, 128, 200, 255].map((i) => ({ address: `10.60.0.${i}/24`, vrf })),
      { address: "10.60.0.63/24", vrf }, // a duplicate: one bit
      { address: "10.60.0.64/24" },
      { address: "2001:db8:60::ff/64" },
    ]);
    expect(made.status, made.text.slice(0, 300)).toBe(201);
    await expectBitsRight();
    const ids = made.body.map((a: any) => a.id);
    // One of two duplicates leaves: the bit stays; then the other moves to another VRF and host.
    expect((await api.delete(`/api/ipam/ip-addresses/${ids[2]}/`)).status).toBe(204);
    await expectBitsRight();
    expect((await api.patch(`/api/ipam/ip-addresses/${ids[8]}/`, { vrf: null, address: "10.60.1.5/24" })).status).toBe(200);
    await expectBitsRight();
    expect(
      (
        await api.patch("/api/ipam/ip-addresses/", [
          { id: ids[7], vrf: null },
          { id: ids[0], address: "10.60.0.254/24" },
        ])
      ).status,
    ).toBe(200);
    await expectBitsRight();
    expect(
      (
        await api.delete(
          "/api/ipam/ip-addresses/",
          ids.slice(3, 7).map((id: number) => ({ id })),
        )
      ).status,
    ).toBe(204);
    await expectBitsRight();
  });

  it("reads a parent and its free addresses or prefixes in one round trip, compiling nothing for a shape seen before", async () => {
    const [first, second] = [
      await make(api, "/api/ipam/prefixes/", { prefix: "10.61.0.0/24" }),
      await make(api, "/api/ipam/prefixes/", { prefix: "10.62.0.0/24" }),
    ];
    await api.get(`/api/ipam/prefixes/${first}/available-ips/?limit=5`);
    const work = await api.work(() => api.get(`/api/ipam/prefixes/${second}/available-ips/?limit=7`));
    // The parent, its free space and the read's snapshot check.
    expect(work).toEqual({ statements: 3, roundTrips: 1, compilations: 0, newTexts: 0 });
    await api.get(`/api/ipam/prefixes/${first}/available-prefixes/`);
    const prefixes = await api.work(() => api.get(`/api/ipam/prefixes/${second}/available-prefixes/`));
    expect(prefixes).toEqual({ statements: 3, roundTrips: 1, compilations: 0, newTexts: 0 });
    // A global container looks again across every VRF.
    const container = await make(api, "/api/ipam/prefixes/", { prefix: "10.63.0.0/16", status: "container" });
    expect((await api.cost(() => api.get(`/api/ipam/prefixes/${container}/available-ips/?limit=1`))).roundTrips).toBe(2);
    expect((await api.cost(() => api.get(`/api/ipam/prefixes/${container}/available-prefixes/`))).roundTrips).toBe(2);
  });

  it("allocates one or a list, keeping vrf, tenant, status and assignment, then 409 when full, in both families", async () => {
    const vrf = await make(api, "/api/ipam/vrfs/", { name: "alloc" });
    const tenant = await make(api, "/api/tenancy/tenants/", { name: "Alloc", slug: "alloc" });
    const device = await fixtureDevice(api, "alloc");
    const iface = await make(api, "/api/dcim/interfaces/", { device, name: "eth0", type: "1000base-t" });
    const id = await make(api, "/api/ipam/prefixes/", { prefix: "203.0.113.0/30", vrf });
    const one = await api.post(`/api/ipam/prefixes/${id}/available-ips/`, {
      tenant,
      status: "reserved",
      description: "gw",
      assigned_object_type: "dcim.interface",
      assigned_object_id: iface,
      address: "1.1.1.1/32",
    });
    expect(one.status, one.text).toBe(201);
    expect([one.body.address, one.body.vrf.id, one.body.tenant.id, one.body.status.value, one.body.assigned_object.id]).toEqual([
      "203.0.113.1/30",
      vrf,
      tenant,
      "reserved",
      iface,
    ]);
    const rest = await api.post(`/api/ipam/prefixes/${id}/available-ips/`, [{ description: "a" }]);
    expect(rest.body.map((x: any) => x.address)).toEqual(["203.0.113.2/30"]);
    const full = await api.post(`/api/ipam/prefixes/${id}/available-ips/`, {});
    expect([full.status, full.body]).toEqual([409, NO_ROOM]);
    expect((await api.post(`/api/ipam/prefixes/${id}/available-ips/`, [{}, {}])).status).toBe(409);

    const v6 = await make(api, "/api/ipam/prefixes/", { prefix: "2001:db8:ff::/126" });
    const three = await api.post(`/api/ipam/prefixes/${v6}/available-ips/`, [{}, {}, {}]);
    expect(three.body.map((x: any) => x.address)).toEqual(["2001:db8:ff::1/126", "2001:db8:ff::2/126", "2001:db8:ff::3/126"]);
    expect((await api.post(`/api/ipam/prefixes/${v6}/available-ips/`, {})).body).toEqual(NO_ROOM);
    expect((await api.get("/api/ipam/prefixes/999999/available-ips/")).status).toBe(404);
  });

  it("allocates from an IP range", async () => {
    const id = await make(api, "/api/ipam/ip-ranges/", { start_address: "10.77.0.10/24", end_address: "10.77.0.12/24" });
    expect((await api.get(`/api/ipam/ip-ranges/${id}/available-ips/`)).body.map((x: any) => x.address)).toEqual([
      "10.77.0.10/24",
      "10.77.0.11/24",
      "10.77.0.12/24",
    ]);
    expect((await api.post(`/api/ipam/ip-ranges/${id}/available-ips/`, [{}, {}, {}])).status).toBe(201);
    expect((await api.post(`/api/ipam/ip-ranges/${id}/available-ips/`, {})).status).toBe(409);
  });
});

describe("available prefixes", () => {
  let api: Harness;
  beforeAll(async () => (api = await createHarness()));
  afterAll(() => api.close());

  it("lists free space as the largest aligned blocks and allocates the first fitting ones", async () => {
    const id = await make(api, "/api/ipam/prefixes/", { prefix: "10.8.0.0/16", status: "container" });
    const first = await api.post(`/api/ipam/prefixes/${id}/available-prefixes/`, { prefix_length: 24, description: "first" });
    expect([first.status, first.body.prefix, first.body._depth, first.body.description]).toEqual([201, "10.8.0.0/24", 1, "first"]);
    await make(api, "/api/ipam/prefixes/", { prefix: "10.8.4.0/22" });
    const list = await api.get(`/api/ipam/prefixes/${id}/available-prefixes/`);
    expect(list.body.map((x: any) => x.prefix)).toEqual([
      "10.8.1.0/24",
      "10.8.2.0/23",
      "10.8.8.0/21",
      "10.8.16.0/20",
      "10.8.32.0/19",
      "10.8.64.0/18",
      "10.8.128.0/17",
    ]);
    const two = await api.post(`/api/ipam/prefixes/${id}/available-prefixes/`, [{ prefix_length: 23 }, { prefix_length: 24 }]);
    expect(two.body.map((x: any) => x.prefix)).toEqual(["10.8.2.0/23", "10.8.1.0/24"]);
    expect((await api.get(`/api/ipam/prefixes/${id}/`)).body.children).toBe(4);
    // A block larger than the parent fits nowhere: no room (NetBox's 409); a length past the family's bits is invalid.
    const larger = await api.post(`/api/ipam/prefixes/${id}/available-prefixes/`, { prefix_length: 8 });
    expect([larger.status, larger.body]).toEqual([409, NO_ROOM]);
    expect((await api.post(`/api/ipam/prefixes/${id}/available-prefixes/`, { prefix_length: 33 })).body).toEqual([
      { prefix_length: ["Invalid prefix length (33) for IPv4"] },
    ]);
    expect((await api.post(`/api/ipam/prefixes/${id}/available-prefixes/`, {})).body).toEqual([
      { prefix_length: ["this field can not be missing"] },
    ]);
    const small = await make(api, "/api/ipam/prefixes/", { prefix: "10.9.0.0/30" });
    expect((await api.post(`/api/ipam/prefixes/${small}/available-prefixes/`, [{ prefix_length: 31 }, { prefix_length: 31 }])).status).toBe(
      201,
    );
    expect((await api.post(`/api/ipam/prefixes/${small}/available-prefixes/`, { prefix_length: 32 })).body).toEqual(NO_ROOM);
  });

  it("handles IPv6", async () => {
    const id = await make(api, "/api/ipam/prefixes/", { prefix: "2001:db8::/48" });
    const got = await api.post(`/api/ipam/prefixes/${id}/available-prefixes/`, [{ prefix_length: 64 }, { prefix_length: 64 }]);
    expect(got.body.map((x: any) => x.prefix)).toEqual(["2001:db8::/64", "2001:db8:0:1::/64"]);
  });
});

describe("available VLANs and ASNs", () => {
  let api: Harness;
  beforeAll(async () => (api = await createHarness()));
  afterAll(() => api.close());

  it("hands out a group's free VIDs in order, then 409", async () => {
    const group = await make(api, "/api/ipam/vlan-groups/", {
      name: "g",
      slug: "g",
      vid_ranges: [
        [10, 11],
        [20, 20],
      ],
    });
    await make(api, "/api/ipam/vlans/", { vid: 11, name: "taken", group });
    const list = await api.get(`/api/ipam/vlan-groups/${group}/available-vlans/`);
    expect(list.body.map((x: any) => x.vid)).toEqual([10, 20]);
    expect(list.body[0].group.id).toBe(group);
    const made = await api.post(`/api/ipam/vlan-groups/${group}/available-vlans/`, [{ name: "a" }, { name: "b", status: "reserved" }]);
    expect(made.body.map((x: any) => [x.vid, x.name, x.status.value, x.group.id])).toEqual([
      [10, "a", 1, group],
      [20, "b", 2, group],
    ]);
    expect((await api.post(`/api/ipam/vlan-groups/${group}/available-vlans/`, { name: "c" })).body).toEqual(NO_ROOM);
  });

  it("hands out an ASN range's free numbers", async () => {
    const rir = await make(api, "/api/ipam/rirs/", { name: "r", slug: "r" });
    const range = await make(api, "/api/ipam/asn-ranges/", { name: "pool", slug: "pool", rir, start: 64512, end: 64513 });
    await make(api, "/api/ipam/asns/", { asn: 64512, rir });
    expect((await api.get(`/api/ipam/asn-ranges/${range}/available-asns/`)).body.map((x: any) => x.asn)).toEqual([64513]);
    const made = await api.post(`/api/ipam/asn-ranges/${range}/available-asns/`, { description: "x" });
    expect([made.status, made.body.asn, made.body.rir.id]).toEqual([201, 64513, rir]);
    expect((await api.post(`/api/ipam/asn-ranges/${range}/available-asns/`, {})).status).toBe(409);
  });
});

for (const driver of ["native", "client"] as Driver[]) {
  describe(`concurrent allocation (${driver} driver)`, () => {
    it("never hands out the same address or prefix twice to fifty concurrent POSTs", async () => {
      const api = await createHarness({}, driver);
      try {
        const id = await make(api, "/api/ipam/prefixes/", { prefix: "10.123.0.0/24" });
        const replies = await Promise.all(
          Array.from({ length: 50 }, (_, i) => api.post(`/api/ipam/prefixes/${id}/available-ips/`, { description: `c${i}` })),
        );
        expect(replies.map((r) => r.status)).toEqual(Array(50).fill(201));
        const addresses = replies.map((r) => r.body.address);
        expect(new Set(addresses).size).toBe(50);
        expect((await api.get(`/api/ipam/ip-addresses/?parent=10.123.0.0/24&limit=0`)).body.count).toBe(50);
        expect((await api.get(`/api/ipam/prefixes/${id}/available-ips/?limit=1`)).body[0].address).toBe("10.123.0.51/24");

        const container = await make(api, "/api/ipam/prefixes/", { prefix: "10.124.0.0/16", status: "container" });
        const prefixes = await Promise.all(
          Array.from({ length: 20 }, () => api.post(`/api/ipam/prefixes/${container}/available-prefixes/`, { prefix_length: 24 })),
        );
        expect(prefixes.map((r) => r.status)).toEqual(Array(20).fill(201));
        expect(new Set(prefixes.map((r) => r.body.prefix)).size).toBe(20);
        expect((await api.get(`/api/ipam/prefixes/${container}/`)).body.children).toBe(20);
        // A tiny prefix: only three of ten concurrent requests get an address, the rest 409.
        const tiny = await make(api, "/api/ipam/prefixes/", { prefix: "10.125.0.0/30", is_pool: true });
        const few = await Promise.all(Array.from({ length: 10 }, () => api.post(`/api/ipam/prefixes/${tiny}/available-ips/`, {})));
        expect(few.filter((r) => r.status === 201)).toHaveLength(4);
        expect(few.filter((r) => r.status === 409)).toHaveLength(6);
      } finally {
        api.close();
      }
    });
  });
}

describe("end to end", () => {
  it("allocates a prefix from a container, addresses from it to two interfaces, and sets the device's primary IPv4", async () => {
    const api = await createHarness();
    try {
      const container = await make(api, "/api/ipam/prefixes/", { prefix: "172.16.0.0/12", status: "container" });
      const subnet = await api.post(`/api/ipam/prefixes/${container}/available-prefixes/`, { prefix_length: 24, status: "active" });
      expect(subnet.body.prefix).toBe("172.16.0.0/24");
      const device = await fixtureDevice(api, "e2e");
      const ifaces = [
        await make(api, "/api/dcim/interfaces/", { device, name: "eth0", type: "1000base-t" }),
        await make(api, "/api/dcim/interfaces/", { device, name: "eth1", type: "1000base-t" }),
      ];
      const ips = await api.post(
        `/api/ipam/prefixes/${subnet.body.id}/available-ips/`,
        ifaces.map((iface) => ({ assigned_object_type: "dcim.interface", assigned_object_id: iface })),
      );
      expect(ips.body.map((x: any) => [x.address, x.assigned_object.name, x.assigned_object.device.id])).toEqual([
        ["172.16.0.1/24", "eth0", device],
        ["172.16.0.2/24", "eth1", device],
      ]);
      const primary = await api.patch(`/api/dcim/devices/${device}/`, { primary_ip4: ips.body[1].id });
      expect([primary.status, primary.body.primary_ip4.address, primary.body.primary_ip.address]).toEqual([
        200,
        "172.16.0.2/24",
        "172.16.0.2/24",
      ]);
      expect((await api.get(`/api/ipam/ip-addresses/?device_id=${device}`)).body.count).toBe(2);
    } finally {
      api.close();
    }
  });
});
