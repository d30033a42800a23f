import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type Reply } from "./support/harness.ts";
import { make, webhookRule } from "./contract/fixtures.ts";

/**
 * Every door a user constrained to one site could try to see or touch what lies outside it: list
 * filters, detail, brief, fields, omit, OPTIONS, the browsable API, bulk writes with mixed ids,
 * references by id, by attributes and as generic pairs, allocation routes, declared routes, change
 * records and webhook deliveries. One constrained model per app (dcim, ipam, circuits, tenancy,
 * virtualization, extras, users). Every hidden object's name carries the marker ZZB; a door leaks
 * when its answer shows the marker (not sent by the request), names a hidden object's id in its
 * results, answers 500, or answers a hidden object otherwise than a missing one (existence).
 */
let api: Harness;
let alice: string;
const ids: Record<string, number> = {};
const MISSING = 987654;
const MARK = /zzb/i;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
let doors = 0;
const leaks: string[] = [];

/** One constrained model: its list path, a visible object, a hidden one, and a harmless change. */
interface Subject {
  readonly path: string;
  readonly a: () => number;
  readonly b: () => number;
  readonly change: Record<string, unknown>;
}

const subjects: Subject[] = [
  { path: "/api/dcim/sites/", a: () => ids.siteA, b: () => ids.siteB, change: { description: "x" } },
  { path: "/api/dcim/devices/", a: () => ids.devA, b: () => ids.devB, change: { description: "x" } },
  { path: "/api/dcim/interfaces/", a: () => ids.ifA, b: () => ids.ifB, change: { description: "x" } },
  { path: "/api/ipam/prefixes/", a: () => ids.pfxA, b: () => ids.pfxB, change: { description: "x" } },
  { path: "/api/circuits/circuits/", a: () => ids.cirA, b: () => ids.cirB, change: { description: "x" } },
  { path: "/api/tenancy/tenants/", a: () => ids.tenA, b: () => ids.tenB, change: { description: "x" } },
  { path: "/api/virtualization/virtual-machines/", a: () => ids.vmA, b: () => ids.vmB, change: { description: "x" } },
  { path: "/api/extras/tags/", a: () => ids.tagA, b: () => ids.tagB, change: { description: "x" } },
  { path: "/api/users/users/", a: () => ids.alice, b: () => ids.bob, change: { first_name: "x" } },
  { path: "/api/users/tokens/", a: () => ids.aliceToken, b: () => ids.bobToken, change: { description: "x" } },
];

const asAlice = (extra: { body?: unknown; headers?: Record<string, string> } = {}) => ({ token: alice, ...extra });
const send = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  api.request(method, path, asAlice({ body, headers }));

/** The ids of a list answer's results (or of a plain list), for the doors that list. */
function listedIds(reply: Reply): number[] {
  const body = reply.body;
  const rows = Array.isArray(body) ? body : Array.isArray(body?.results) ? body.results : [];
  return rows.map((r: any) => r?.id).filter((x: unknown) => typeof x === "number");
}

/**
 * Tries one door: `reply` must not show the marker (unless the request itself sent it), nor list
 * `hidden` among its results, nor be a 500; with a `twin` (the same request naming a missing
 * object instead), it must answer exactly as the twin does once the two names are swapped.
 */
function door(name: string, reply: Reply, o: { hidden?: number; sent?: string; twin?: Reply; swap?: [string, string] } = {}): void {
  doors++;
  const problems: string[] = [];
  if (reply.status >= 500) problems.push(`status ${reply.status}`);
  const shown = o.sent ? reply.text.split(o.sent).join("") : reply.text;
  if (MARK.test(shown)) problems.push("shows a hidden name");
  if (o.hidden !== undefined && listedIds(reply).includes(o.hidden)) problems.push("lists a hidden object");
  if (o.twin) {
    // The twin's name for the missing object becomes the hidden one's (the missing names are
    // unique strings, where a short id could match any digit in the answer).
    const norm = (text: string, from?: string, to?: string) => (from ? text.split(from).join(to!) : text).replace(UUID, "<uuid>");
    const mine = { status: reply.status, text: norm(reply.text) };
    const theirs = { status: o.twin.status, text: norm(o.twin.text, o.swap?.[1], o.swap?.[0]) };
    if (mine.status !== theirs.status || mine.text !== theirs.text)
      problems.push(
        `answers otherwise than a missing object: ${mine.status} ${mine.text.slice(0, 160)} / ${theirs.status} ${theirs.text.slice(0, 160)}`,
      );
  }
  if (problems.length) leaks.push(`${name}: ${problems.join("; ")}`);
}

beforeAll(async () => {
  api = await createHarness();
  const mk = (path: string, body: Record<string, unknown>) => make(api, path, body);
  await webhookRule(api, ["dcim.site", "dcim.device"], ["object_created", "object_updated"]);
  ids.siteA = await mk("/api/dcim/sites/", { name: "Site A", slug: "site-a" });
  ids.siteB = await mk("/api/dcim/sites/", { name: "Site ZZB", slug: "zzb-site" });
  const manufacturer = await mk("/api/dcim/manufacturers/", { name: "Acme", slug: "acme" });
  const type = await mk("/api/dcim/device-types/", { manufacturer, model: "Box", slug: "box" });
  const role = await mk("/api/dcim/device-roles/", { name: "Switch", slug: "switch" });
  ids.type = type;
  ids.role = role;
  ids.devA = await mk("/api/dcim/devices/", { name: "dev-a", site: ids.siteA, device_type: type, role });
  ids.devB = await mk("/api/dcim/devices/", { name: "dev-zzb", site: ids.siteB, device_type: type, role });
  ids.ifA = await mk("/api/dcim/interfaces/", { device: ids.devA, name: "eth-a", type: "1000base-t" });
  ids.ifA2 = await mk("/api/dcim/interfaces/", { device: ids.devA, name: "eth-a2", type: "1000base-t" });
  ids.ifB = await mk("/api/dcim/interfaces/", { device: ids.devB, name: "eth-zzb", type: "1000base-t" });
  ids.pfxA = await mk("/api/ipam/prefixes/", { prefix: "10.1.0.0/24", site: ids.siteA, description: "prefix a" });
  ids.pfxB = await mk("/api/ipam/prefixes/", { prefix: "10.99.0.0/24", site: ids.siteB, description: "prefix zzb" });
  const provider = await mk("/api/circuits/providers/", { name: "Carrier", slug: "carrier" });
  const circuitType = await mk("/api/circuits/circuit-types/", { name: "Transit", slug: "transit" });
  ids.provider = provider;
  ids.circuitType = circuitType;
  ids.cirA = await mk("/api/circuits/circuits/", { cid: "CID-A", provider, type: circuitType });
  ids.cirB = await mk("/api/circuits/circuits/", { cid: "CID-ZZB", provider, type: circuitType });
  ids.tenA = await mk("/api/tenancy/tenants/", { name: "Tenant A", slug: "tenant-a" });
  ids.tenB = await mk("/api/tenancy/tenants/", { name: "Tenant ZZB", slug: "zzb-tenant" });
  ids.vmA = await mk("/api/virtualization/virtual-machines/", { name: "vm-a", site: ids.siteA });
  ids.vmB = await mk("/api/virtualization/virtual-machines/", { name: "vm-zzb", site: ids.siteB });
  ids.tagA = await mk("/api/extras/tags/", { name: "Tag A", slug: "tag-a" });
  ids.tagB = await mk("/api/extras/tags/", { name: "Tag ZZB", slug: "zzb-tag" });
  await mk("/api/extras/custom-fields/", {
    name: "owner",
    type: "object",
    object_types: ["dcim.device"],
    related_object_type: "tenancy.tenant",
  });
  ids.bob = await mk("/api/users/users/", { username: "zzb-bob", password: "A-password-123" });
  ids.bobToken = await mk("/api/users/tokens/", { user: ids.bob, description: "zzb token" });
  // Webhook runs and change records about the hidden objects.
  await api.patch(`/api/dcim/sites/${ids.siteB}/`, { description: "zzb changed" });
  await api.queue.drain();

  alice = await api.token({ superuser: false, username: "alice" });
  ids.alice = (await api.get("/api/users/users/?username=alice")).body.results[0].id;
  ids.aliceToken = (await api.get(`/api/users/tokens/?user_id=${ids.alice}`)).body.results[0].id;
  const grant = (object_types: string[], actions: string[], constraints: unknown = null) =>
    mk("/api/users/permissions/", {
      name: `p ${object_types[0]} ${actions.join(",")}`,
      object_types,
      actions,
      constraints,
      users: [ids.alice],
    });
  const all = ["view", "add", "change", "delete"];
  await grant(["dcim.site"], all, { slug: "site-a" });
  await grant(["dcim.device"], all, { site__slug: "site-a" });
  await grant(["dcim.interface"], all, { device__site__slug: "site-a" });
  await grant(["ipam.prefix"], all, { site__slug: "site-a" });
  await grant(["circuits.circuit"], all, { cid: "CID-A" });
  await grant(["tenancy.tenant"], all, { slug: "tenant-a" });
  await grant(["virtualization.virtualmachine"], all, { site__slug: "site-a" });
  await grant(["extras.tag"], all, { slug: "tag-a" });
  await grant(["users.user"], ["view", "change"], { username: "alice" });
  await grant(["core.objectchange"], ["view"], { user_name: "alice" });
  await grant(["extras.webhookdelivery"], ["view"], { object_type: "dcim.device", object_id: ids.devA });
  await grant(["ipam.ipaddress", "dcim.cable"], ["view", "add"]);
  await grant(["dcim.devicetype", "dcim.devicerole", "dcim.manufacturer", "circuits.provider", "circuits.circuittype"], ["view"]);
  // Alice's own change, with its webhook run: what she may see of the records.
  expect((await api.patch(`/api/dcim/devices/${ids.devA}/`, { description: "alice was here" }, asAlice())).status).toBe(200);
  await api.queue.drain();
});
afterAll(() => api.close());

describe("a user constrained to one site", () => {
  for (const s of subjects) {
    it(`sees nothing hidden through ${s.path}`, async () => {
      const [a, b] = [s.a(), s.b()];
      const detail = (id: number, query = "") => `${s.path}${id}/${query}`;
      const list = (query: string) => send("GET", `${s.path}${query}`);
      for (const query of [
        "",
        "?brief=1",
        "?fields=id,url,display",
        "?omit=id",
        "?q=zzb",
        `?id=${b}`,
        `?id__n=${a}`,
        "?ordering=-id",
        "?limit=1&offset=1",
        `?id=${a}&id=${b}`,
      ]) {
        door(`GET ${s.path}${query}`, await list(query), { hidden: b, sent: query.includes("zzb") ? "zzb" : undefined });
      }
      const count = (await list("")).body.count;
      door(`count of ${s.path}`, { ...(await list("")), text: count === listedIds(await list("")).length ? "" : "zzb count" } as Reply);
      for (const query of ["", "?brief=1", "?fields=id,display", "?omit=id"]) {
        door(`GET ${detail(b, query)}`, await send("GET", detail(b, query)), {
          twin: await send("GET", detail(MISSING, query)),
          swap: [String(b), String(MISSING)],
        });
      }
      door(`HEAD ${detail(b)}`, await send("HEAD", detail(b)), { twin: await send("HEAD", detail(MISSING)) });
      door(`OPTIONS ${s.path}`, await send("OPTIONS", s.path));
      door(`OPTIONS ${detail(b)}`, await send("OPTIONS", detail(b)), {
        twin: await send("OPTIONS", detail(MISSING)),
        swap: [String(b), String(MISSING)],
      });
      door(`HTML ${s.path}`, await send("GET", s.path, undefined, { Accept: "text/html" }), { hidden: b });
      door(`HTML ${detail(b)}`, await send("GET", detail(b), undefined, { Accept: "text/html" }));
      door(`HTML ${s.path}?format=api`, await send("GET", `${s.path}?format=api&brief=1`));
      for (const method of ["PATCH", "PUT", "DELETE"]) {
        const item = (id: number) => ({ id, ...(method === "DELETE" ? {} : s.change) });
        const mixed = await send(method, s.path, [item(a), item(b)]);
        door(`bulk ${method} ${s.path} [visible, hidden]`, mixed, {
          twin: await send(method, s.path, [item(a), item(MISSING)]),
          swap: [String(b), String(MISSING)],
        });
        if (mixed.status < 300) leaks.push(`bulk ${method} ${s.path} [visible, hidden]: answered ${mixed.status}`);
      }
      door(`PATCH ${detail(b)}`, await send("PATCH", detail(b), s.change), {
        twin: await send("PATCH", detail(MISSING), s.change),
        swap: [String(b), String(MISSING)],
      });
      door(`DELETE ${detail(b)}`, await send("DELETE", detail(b)), {
        twin: await send("DELETE", detail(MISSING)),
        swap: [String(b), String(MISSING)],
      });
      // The hidden object is untouched and the visible one survived the refused bulk delete.
      expect((await api.get(detail(b))).status).toBe(200);
      expect((await api.get(detail(a))).status).toBe(200);
    });
  }

  it("finds nothing hidden by filtering on hidden relations", async () => {
    const tries: [string, string, string, string][] = [
      ["/api/dcim/devices/", "site_id", String(ids.siteB), String(MISSING)],
      ["/api/dcim/devices/", "site", "zzb-site", "zzz-nothing"],
      ["/api/dcim/devices/", "tenant_id", String(ids.tenB), String(MISSING)],
      ["/api/dcim/devices/", "tag", "zzb-tag", "zzz-nothing"],
      ["/api/dcim/interfaces/", "device_id", String(ids.devB), String(MISSING)],
      ["/api/dcim/interfaces/", "device", "dev-zzb", "zzz-nothing"],
      ["/api/ipam/prefixes/", "site_id", String(ids.siteB), String(MISSING)],
      ["/api/ipam/prefixes/", "site", "zzb-site", "zzz-nothing"],
      ["/api/virtualization/virtual-machines/", "site_id", String(ids.siteB), String(MISSING)],
      ["/api/circuits/circuits/", "tenant", "zzb-tenant", "zzz-nothing"],
      ["/api/ipam/ip-addresses/", "interface_id", String(ids.ifB), String(MISSING)],
      ["/api/ipam/ip-addresses/", "device_id", String(ids.devB), String(MISSING)],
    ];
    for (const [path, name, hidden, missing] of tries) {
      const reply = await send("GET", `${path}?${name}=${hidden}`);
      door(`GET ${path}?${name}=<hidden>`, reply, {
        sent: hidden,
        twin: await send("GET", `${path}?${name}=${missing}`),
        swap: [hidden, missing],
      });
    }
  });

  it("cannot reach hidden objects through references", async () => {
    const device = (extra: Record<string, unknown>) => ({
      name: "new-dev",
      site: ids.siteA,
      device_type: ids.type,
      role: ids.role,
      ...extra,
    });
    const ip = (extra: Record<string, unknown>) => ({ address: "10.1.0.9/24", ...extra });
    const tries: [string, string, Record<string, unknown>, Record<string, unknown>, string, string][] = [
      ["/api/dcim/devices/", "site by id", device({ site: ids.siteB }), device({ site: MISSING }), String(ids.siteB), String(MISSING)],
      [
        "/api/dcim/devices/",
        "site by attributes",
        device({ site: { slug: "zzb-site" } }),
        device({ site: { slug: "zzz-nothing" } }),
        "zzb-site",
        "zzz-nothing",
      ],
      ["/api/dcim/devices/", "tenant by id", device({ tenant: ids.tenB }), device({ tenant: MISSING }), String(ids.tenB), String(MISSING)],
      [
        "/api/dcim/devices/",
        "tenant by attributes",
        device({ tenant: { name: "Tenant ZZB" } }),
        device({ tenant: { name: "Tenant ZZZ" } }),
        "ZZB",
        "ZZZ",
      ],
      ["/api/dcim/devices/", "tags by id", device({ tags: [ids.tagB] }), device({ tags: [MISSING] }), String(ids.tagB), String(MISSING)],
      [
        "/api/dcim/devices/",
        "tags by slug",
        device({ tags: [{ slug: "zzb-tag" }] }),
        device({ tags: [{ slug: "zzz-nothing" }] }),
        "zzb-tag",
        "zzz-nothing",
      ],
      [
        "/api/dcim/devices/",
        "custom field object",
        device({ custom_fields: { owner: ids.tenB } }),
        device({ custom_fields: { owner: MISSING } }),
        String(ids.tenB),
        String(MISSING),
      ],
      [
        "/api/dcim/interfaces/",
        "parent on a hidden device",
        { device: ids.devA, name: "x", type: "virtual", parent: ids.ifB },
        { device: ids.devA, name: "x", type: "virtual", parent: MISSING },
        String(ids.ifB),
        String(MISSING),
      ],
      [
        "/api/ipam/prefixes/<a>/available-ips/",
        "tenant by id",
        { tenant: ids.tenB },
        { tenant: MISSING },
        String(ids.tenB),
        String(MISSING),
      ],
      [
        "/api/dcim/interfaces/",
        "device by id",
        { device: ids.devB, name: "x", type: "1000base-t" },
        { device: MISSING, name: "x", type: "1000base-t" },
        String(ids.devB),
        String(MISSING),
      ],
      [
        "/api/ipam/ip-addresses/",
        "generic pair",
        ip({ assigned_object_type: "dcim.interface", assigned_object_id: ids.ifB }),
        ip({ assigned_object_type: "dcim.interface", assigned_object_id: MISSING }),
        String(ids.ifB),
        String(MISSING),
      ],
      [
        "/api/ipam/prefixes/",
        "generic scope",
        { prefix: "10.5.0.0/24", site: ids.siteA, scope_type: "dcim.site", scope_id: ids.siteB },
        { prefix: "10.5.0.0/24", site: ids.siteA, scope_type: "dcim.site", scope_id: MISSING },
        String(ids.siteB),
        String(MISSING),
      ],
      [
        "/api/virtualization/virtual-machines/",
        "site by id",
        { name: "vm-new", site: ids.siteB },
        { name: "vm-new", site: MISSING },
        String(ids.siteB),
        String(MISSING),
      ],
      [
        "/api/circuits/circuits/",
        "tenant by id",
        { cid: "CID-A", provider: ids.provider, type: ids.circuitType, tenant: ids.tenB },
        { cid: "CID-A", provider: ids.provider, type: ids.circuitType, tenant: MISSING },
        String(ids.tenB),
        String(MISSING),
      ],
      [
        "/api/dcim/cables/",
        "termination",
        {
          a_terminations: [{ object_type: "dcim.interface", object_id: ids.ifA2 }],
          b_terminations: [{ object_type: "dcim.interface", object_id: ids.ifB }],
        },
        {
          a_terminations: [{ object_type: "dcim.interface", object_id: ids.ifA2 }],
          b_terminations: [{ object_type: "dcim.interface", object_id: MISSING }],
        },
        String(ids.ifB),
        String(MISSING),
      ],
    ];
    for (const [template, what, hidden, missing, from, to] of tries) {
      const path = template.replace("<a>", String(ids.pfxA));
      const reply = await send("POST", path, hidden);
      door(`POST ${path} ${what}`, reply, { sent: from, twin: await send("POST", path, missing), swap: [from, to] });
      if (reply.status < 300) leaks.push(`POST ${path} ${what}: answered ${reply.status}`);
    }
    const patched = await send("PATCH", `/api/dcim/devices/${ids.devA}/`, { tenant: ids.tenB });
    door("PATCH device tenant by id", patched, {
      twin: await send("PATCH", `/api/dcim/devices/${ids.devA}/`, { tenant: MISSING }),
      swap: [String(ids.tenB), String(MISSING)],
    });
  });

  it("is not told the names of hidden objects that block a delete", async () => {
    const blocker = await make(api, "/api/dcim/devices/", {
      name: "dev-zzb-tenant",
      site: ids.siteB,
      device_type: ids.type,
      role: ids.role,
      tenant: ids.tenA,
    });
    const refused = await send("DELETE", `/api/tenancy/tenants/${ids.tenA}/`);
    door("DELETE of a visible object that hidden objects depend on", refused);
    expect(refused.status).toBe(409);
    await api.delete(`/api/dcim/devices/${blocker}/`);
  });

  it("cannot allocate from, or list the free space of, a hidden parent", async () => {
    for (const route of ["available-ips", "available-prefixes"]) {
      for (const [method, body] of [
        ["GET", undefined],
        ["POST", route === "available-ips" ? {} : { prefix_length: 28 }],
      ] as const) {
        const path = (id: number) => `/api/ipam/prefixes/${id}/${route}/`;
        door(`${method} ${path(ids.pfxB)}`, await send(method, path(ids.pfxB), body), {
          twin: await send(method, path(MISSING), body),
          swap: [String(ids.pfxB), String(MISSING)],
        });
      }
    }
    door("GET trace of a hidden interface", await send("GET", `/api/dcim/interfaces/${ids.ifB}/trace/`), {
      twin: await send("GET", `/api/dcim/interfaces/${MISSING}/trace/`),
      swap: [String(ids.ifB), String(MISSING)],
    });
  });

  it("sees only the change records and webhook runs its permissions allow", async () => {
    for (const path of ["/api/core/object-changes/", "/api/extras/object-changes/"]) {
      const records = await send("GET", path);
      door(`GET ${path}`, records);
      expect(records.body.results.length).toBeGreaterThan(0);
      door(
        `GET ${path}?changed_object_id=<hidden>`,
        await send("GET", `${path}?changed_object_type=dcim.site&changed_object_id=${ids.siteB}`),
      );
      door(`GET ${path}?q=zzb`, await send("GET", `${path}?q=zzb`), { sent: "zzb" });
      door(`GET ${path} as a page`, await send("GET", path, undefined, { Accept: "text/html" }));
    }
    const hiddenRecord = (await api.get(`/api/core/object-changes/?changed_object_type=dcim.site&changed_object_id=${ids.siteB}`)).body
      .results[0].id;
    door("GET a hidden change record", await send("GET", `/api/core/object-changes/${hiddenRecord}/`), {
      twin: await send("GET", `/api/core/object-changes/${MISSING}/`),
      swap: [String(hiddenRecord), String(MISSING)],
    });
    const created = await send(
      "GET",
      `/api/dcim/sites/?created_by_request=${(await api.get(`/api/core/object-changes/${hiddenRecord}/`)).body.request_id}`,
    );
    door("GET sites created by a hidden request", created, { hidden: ids.siteB });

    const runs = await send("GET", "/api/extras/webhook-deliveries/");
    door("GET /api/extras/webhook-deliveries/", runs);
    expect(runs.body.results.length).toBeGreaterThan(0);
    const hiddenRun = (await api.get(`/api/extras/webhook-deliveries/?object_type=dcim.site`)).body.results[0].id;
    door("GET a hidden webhook run", await send("GET", `/api/extras/webhook-deliveries/${hiddenRun}/`), {
      twin: await send("GET", `/api/extras/webhook-deliveries/${MISSING}/`),
      swap: [String(hiddenRun), String(MISSING)],
    });
    door("retry a hidden webhook run", await send("POST", `/api/extras/webhook-deliveries/${hiddenRun}/retry/`), {
      twin: await send("POST", `/api/extras/webhook-deliveries/${MISSING}/retry/`),
      swap: [String(hiddenRun), String(MISSING)],
    });
    door("GET /api/extras/webhook-deliveries/?q=zzb", await send("GET", "/api/extras/webhook-deliveries/?q=zzb"), { sent: "zzb" });
    door("admin page of webhook runs", await send("GET", "/admin/webhook-deliveries/"));
    door("admin page of a hidden webhook run", await send("GET", `/admin/webhook-deliveries/${hiddenRun}/`), {
      twin: await send("GET", `/admin/webhook-deliveries/${MISSING}/`),
      swap: [String(hiddenRun), String(MISSING)],
    });
  });

  it("leaks through none of the doors tried", () => {
    console.log(`permission doors tried: ${doors}, leaks: ${leaks.length}`);
    expect(leaks.join("\n")).toBe("");
    expect(doors).toBeGreaterThan(200);
  });
});
