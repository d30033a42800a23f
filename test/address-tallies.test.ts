import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "./support/harness.ts";

/*
 * IP addresses by `parent` are counted from tallies of blocks of 256 addresses that triggers keep
 * (migrations/0035_ip_address_tallies.sql, src/apps/ipam/address-tallies.ts). The count must be the
 * rows' count, whatever wrote them and whichever network is asked.
 */

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

/** The count of the page and the number of rows the filter matches, counted one by one. */
async function counts(parent: string, extra = "", token?: string) {
  const page = await h.get(`/api/ipam/ip-addresses/?parent=${encodeURIComponent(parent)}&limit=1${extra}`, token ? { token } : {});
  expect(page.status).toBe(200);
  const all = await h.get(`/api/ipam/ip-addresses/?parent=${encodeURIComponent(parent)}&limit=0&brief=1${extra}`, token ? { token } : {});
  return { count: page.body.count as number, rows: (all.body.results as unknown[]).length };
}

const NETWORKS = [
  "10.0.0.0/8",
  "10.1.0.0/16",
  "10.1.2.0/24",
  "10.1.2.128/25",
  "10.1.2.5/32",
  "10.1.3.0/23",
  "10.1.0.0/22",
  "10.2.0.0/16",
  "0.0.0.0/0",
];
const NETWORKS6 = ["2001:db8::/32", "2001:db8::/120", "2001:db8::/64", "2001:db8::100/121", "::/0"];

async function expectCountsRight(networks = [...NETWORKS, ...NETWORKS6]) {
  for (const parent of networks) {
    const { count, rows } = await counts(parent);
    expect(count, parent).toBe(rows);
  }
}

describe("IP addresses counted by blocks", () => {
  it("count what the rows hold after bulk creates across block edges, moves, deletes and a refused bulk write", async () => {
    const v4 = [
      ...Array.from({ length: 300 }, (_, i) => `10.1.${Math.floor(i / 100)}.${(i % 100) * 2 + 1}/24`),
      "10.1.2.255/24",
      "10.1.3.0/24",
      "10.1.255.255/16",
      "10.2.0.0/16",
    ];
    const v6 = ["2001:db8::1/64", "2001:db8::ff/64", "2001:db8::100/64", "2001:db8::1:0/64", "2001:db8:1::1/48"];
    // The same address again in a VRF that allows it, twice: every row counted, in any VRF.
    const vrf = (await h.post("/api/ipam/vrfs/", { name: "Loose", enforce_unique: false })).body.id;
    const again = ["10.1.2.5/32", "10.1.2.5/24"].map((address) => ({ address, vrf }));
    const created = await h.post("/api/ipam/ip-addresses/", [...[...v4, ...v6].map((address) => ({ address })), ...again]);
    expect(created.status, created.text).toBe(201);
    await expectCountsRight();
    expect((await counts("10.1.0.0/16")).count).toBe(305);

    // Moved to another block, to another network, and deleted, one by one and in bulk.
    const ids = (created.body as { id: number }[]).map((a) => a.id);
    expect((await h.patch(`/api/ipam/ip-addresses/${ids[0]}/`, { address: "10.1.2.200/24" })).status).toBe(200);
    expect((await h.patch(`/api/ipam/ip-addresses/${ids[1]}/`, { address: "192.0.2.1/24" })).status).toBe(200);
    expect(
      (
        await h.patch(
          "/api/ipam/ip-addresses/",
          ids.slice(2, 40).map((id, i) => ({ id, address: `10.9.0.${i + 1}/24` })),
        )
      ).status,
    ).toBe(200);
    expect((await h.delete(`/api/ipam/ip-addresses/${ids[40]}/`)).status).toBe(204);
    expect(
      (
        await h.delete(
          "/api/ipam/ip-addresses/",
          ids.slice(41, 90).map((id) => ({ id })),
        )
      ).status,
    ).toBe(204);
    await expectCountsRight([...NETWORKS, ...NETWORKS6, "10.9.0.0/24", "192.0.2.0/24"]);
    expect((await counts("10.9.0.0/24")).count).toBe(38);

    // A bulk write refused as a whole leaves the tallies as they were.
    const before = await counts("10.1.0.0/16");
    const refused = await h.post("/api/ipam/ip-addresses/", [{ address: "10.1.7.1/24" }, { address: "not an address" }]);
    expect(refused.status).toBe(400);
    expect(await counts("10.1.0.0/16")).toEqual(before);
    await expectCountsRight();
  });

  it("reads the tallies only for one parent alone, seen whole: other filters, several parents and a restricted requester count rows", async () => {
    const tallied = async (query: string, token?: string) => {
      const sent: string[] = [];
      const batch = h.db.batch.bind(h.db);
      h.db.batch = async (statements, mode) => {
        sent.push(...statements.map((s) => s.sql));
        return batch(statements, mode);
      };
      try {
        const reply = await h.get(`/api/ipam/ip-addresses/?${query}`, token ? { token } : {});
        expect(reply.status).toBe(200);
        return sent.some((text) => text.includes("ipam_ipaddress_tally"));
      } finally {
        h.db.batch = batch;
      }
    };
    expect(await tallied("parent=10.1.0.0/16")).toBe(true);
    expect(await tallied("parent=10.1.0.0/16&status=active")).toBe(false);
    expect(await tallied("parent=10.1.0.0/16&parent=10.2.0.0/16")).toBe(false);
    expect(await tallied("parent=10.1.0.0/16&q=10.1")).toBe(false);

    const user = await h.post("/api/users/users/", { username: "limited", password: "A-password-123" });
    const key = (await h.post("/api/users/tokens/", { user: user.body.id })).body.key as string;
    const perm = await h.post("/api/users/permissions/", {
      name: "some addresses",
      object_types: ["ipam.ipaddress"],
      actions: ["view"],
      constraints: { status: "reserved" },
      users: [user.body.id],
    });
    expect(perm.status).toBe(201);
    expect(await tallied("parent=10.1.0.0/16", key)).toBe(false);
    // Both overlapping parents and the restricted view count the rows they see.
    const both = await counts("10.1.0.0/16", "&parent=10.1.2.0/24");
    expect(both.count).toBe(both.rows);
    expect((await counts("10.1.0.0/16", "", key)).count).toBe(0);
  });
});
