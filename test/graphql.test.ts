import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, createHarness, type Harness } from "./support/harness.ts";
import { bodyOf } from "../src/lib/responses.ts";
import { packageAssets } from "../src/runtime/package-assets.ts";
import { expectBaseline } from "./support/contract.ts";

/*
 * GraphQL at /graphql/ through the real router, on a real database: NetBox's query shapes,
 * filters, relations at every depth, the requester's view scope, the limits, and one round trip
 * per query whatever its depth.
 */

let api: Harness;
const ids: Record<string, number> = {};

async function make(path: string, body: unknown): Promise<any> {
  const reply = await api.post(path, body);
  if (reply.status !== 201) throw new Error(`${path}: ${reply.text}`);
  return reply.body;
}

const gql = async (query: string, variables?: Record<string, unknown>, token?: string | null) => {
  const reply = await api.post("/graphql/", { query, ...(variables ? { variables } : {}) }, token === undefined ? {} : { token });
  return reply;
};

beforeAll(async () => {
  api = await createHarness();
  const tenant = await make("/api/tenancy/tenants/", { name: "Ops", slug: "ops" });
  const region = await make("/api/dcim/regions/", { name: "EMEA", slug: "emea" });
  const [ams, fra] = await make("/api/dcim/sites/", [
    { name: "ams1", slug: "ams1", region: region.id, tenant: tenant.id, latitude: 52.3 },
    { name: "fra1", slug: "fra1", status: "planned" },
  ]);
  const mf = await make("/api/dcim/manufacturers/", { name: "Arista", slug: "arista" });
  const type = await make("/api/dcim/device-types/", { manufacturer: mf.id, model: "7050", slug: "7050" });
  const role = await make("/api/dcim/device-roles/", { name: "Leaf", slug: "leaf" });
  const devices = await make("/api/dcim/devices/", [
    {
      name: "leaf1",
      site: ams.id,
      device_type: type.id,
      role: role.id,
      tenant: tenant.id,
      serial: "SN1",
      local_context_data: { ntp: ["10.0.0.1"] },
    },
    { name: "leaf2", site: ams.id, device_type: type.id, role: role.id, status: "offline" },
    { name: "edge1", site: fra.id, device_type: type.id, role: role.id },
  ]);
  const interfaces = await make(
    "/api/dcim/interfaces/",
    devices.flatMap((d: any) => [
      { device: d.id, name: "Ethernet2", type: "10gbase-x-sfpp" },
      { device: d.id, name: "Ethernet1", type: "10gbase-x-sfpp", enabled: d.name !== "leaf2" },
    ]),
  );
  const [ip1, ip2] = await make("/api/ipam/ip-addresses/", [
    { address: "192.0.2.1/24", assigned_object_type: "dcim.interface", assigned_object_id: interfaces[1].id },
    { address: "192.0.2.2/24", assigned_object_type: "dcim.interface", assigned_object_id: interfaces[3].id },
    { address: "192.0.2.3/24", assigned_object_type: "dcim.interface", assigned_object_id: interfaces[1].id, status: "reserved" },
  ]);
  await api.patch(`/api/dcim/devices/${devices[0].id}/`, { primary_ip4: ip1.id });
  const cable = await make("/api/dcim/cables/", {
    label: "C1",
    a_terminations: [{ object_type: "dcim.interface", object_id: interfaces[1].id }],
    b_terminations: [{ object_type: "dcim.interface", object_id: interfaces[3].id }],
  });
  await make("/api/ipam/prefixes/", { prefix: "192.0.2.0/24", scope_type: "dcim.site", scope_id: ams.id });
  Object.assign(ids, {
    ams: ams.id,
    fra: fra.id,
    leaf1: devices[0].id,
    leaf2: devices[1].id,
    edge1: devices[2].id,
    cable: cable.id,
    ip2: ip2.id,
  });
  Object.assign(ids, { leaf1e1: interfaces[1].id, leaf2e1: interfaces[3].id });
});
afterAll(() => api.close());

describe("GraphQL queries", () => {
  it("answers an object by id with its relations, reverse relations and their relations", async () => {
    const reply = await gql(`{ device(id: "${ids.leaf1}") { id name display class_type serial local_context_data
      site { slug region { slug } tenant { name } latitude }
      primary_ip4 { address family { value label } }
      interfaces { name enabled ip_addresses { address status assigned_object { __typename ... on InterfaceType { name } } } } } }`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      data: {
        device: {
          id: String(ids.leaf1),
          name: "leaf1",
          display: "leaf1",
          class_type: "Device",
          serial: "SN1",
          local_context_data: { ntp: ["10.0.0.1"] },
          site: { slug: "ams1", region: { slug: "emea" }, tenant: { name: "Ops" }, latitude: "52.3" },
          primary_ip4: { address: "192.0.2.1/24", family: { value: 4, label: "IPv4" } },
          // Interfaces in NetBox's order (by name), addresses in theirs.
          interfaces: [
            {
              name: "Ethernet1",
              enabled: true,
              ip_addresses: [
                { address: "192.0.2.1/24", status: "active", assigned_object: { __typename: "InterfaceType", name: "Ethernet1" } },
                { address: "192.0.2.3/24", status: "reserved", assigned_object: { __typename: "InterfaceType", name: "Ethernet1" } },
              ],
            },
            { name: "Ethernet2", enabled: true, ip_addresses: [] },
          ],
        },
      },
    });
  });

  it("filters lists with lookups, REST filters and AND/OR/NOT", async () => {
    const names = async (filters: string) => {
      const reply = await gql(`{ device_list(filters: ${filters}) { name } }`);
      expect(reply.body.errors, reply.text).toBeUndefined();
      return reply.body.data.device_list.map((d: any) => d.name);
    };
    expect(await names(`{name: {starts_with: "leaf"}}`)).toEqual(["leaf1", "leaf2"]);
    expect(await names(`{name: {i_exact: "LEAF1"}}`)).toEqual(["leaf1"]);
    expect(await names(`{name: {in_list: ["edge1", "leaf2", "none"]}}`)).toEqual(["edge1", "leaf2"]);
    expect(await names(`{site: ["fra1"]}`)).toEqual(["edge1"]);
    expect(await names(`{site_id: ["${ids.ams}"], status: "offline"}`)).toEqual(["leaf2"]);
    expect(await names(`{has_primary_ip: true}`)).toEqual(["leaf1"]);
    expect(await names(`{q: "edge"}`)).toEqual(["edge1"]);
    expect(await names(`{site: ["ams1"], AND: {status: "active"}}`)).toEqual(["leaf1"]);
    expect(await names(`{site: ["fra1"], OR: {serial: {exact: "SN1"}}}`)).toEqual(["edge1", "leaf1"]);
    expect(await names(`{site: ["ams1"], NOT: {name: {ends_with: "2"}}}`)).toEqual(["leaf1"]);
    expect(await names(`{status: "bogus"}`)).toEqual([]);
    expect(await names(`{name: {regex: "^l.*2$"}}`)).toEqual(["leaf2"]);
    expect(await names(`{name: {i_regex: "^EDGE[0-9]"}}`)).toEqual(["edge1"]);
    const badPattern = await gql(`{ device_list(filters: {name: {regex: "a("}}) { name } }`);
    expect(badPattern.status).toBe(200);
    expect(badPattern.body.errors[0].message).toMatch(/^Invalid regular expression: /);
    // A field's yes/no filter is a Boolean, as NetBox types it.
    const cabled = await gql(`{ interface_list(filters: {cabled: true}) { name device { name } } }`);
    expect(cabled.body.data.interface_list).toEqual([
      { name: "Ethernet1", device: { name: "leaf1" } },
      { name: "Ethernet1", device: { name: "leaf2" } },
    ]);
    // Filters on a list below another object.
    const reply = await gql(
      `{ site(id: ${ids.ams}) { devices(filters: {status: "active"}) { name interfaces(filters: {enabled: false}) { name } } } }`,
    );
    expect(reply.body.data.site.devices).toEqual([{ name: "leaf1", interfaces: [] }]);
  });

  it("pages lists with pagination, at the root and below another object", async () => {
    const root = await gql(`{ device_list(pagination: {offset: 1, limit: 1}) { name } }`);
    expect(root.body.data.device_list).toEqual([{ name: "leaf1" }]);
    const nested = await gql(`{ device_list(filters: {site: ["ams1"]}) { name interfaces(pagination: {limit: 1}) { name } } }`);
    expect(nested.body.data.device_list).toEqual([
      { name: "leaf1", interfaces: [{ name: "Ethernet1" }] },
      { name: "leaf2", interfaces: [{ name: "Ethernet1" }] },
    ]);
  });

  it("answers unions: generic relations, cable ends, link peers and connected endpoints", async () => {
    const reply =
      await gql(`{ cable(id: ${ids.cable}) { label a_terminations { __typename ... on InterfaceType { name device { name } } } b_terminations { ... on InterfaceType { name } } }
      interface(id: ${ids.leaf1e1}) { cable { label } link_peers { ... on InterfaceType { name device { name } } } connected_endpoints { __typename ... on InterfaceType { device { name } } } }
      prefix_list { prefix scope_type { app_label model } scope { __typename ... on SiteType { slug } } } }`);
    expect(reply.body.errors, reply.text).toBeUndefined();
    expect(reply.body.data).toEqual({
      cable: {
        label: "C1",
        a_terminations: [{ __typename: "InterfaceType", name: "Ethernet1", device: { name: "leaf1" } }],
        b_terminations: [{ name: "Ethernet1" }],
      },
      interface: {
        cable: { label: "C1" },
        link_peers: [{ name: "Ethernet1", device: { name: "leaf2" } }],
        connected_endpoints: [{ __typename: "InterfaceType", device: { name: "leaf2" } }],
      },
      prefix_list: [
        { prefix: "192.0.2.0/24", scope_type: { app_label: "dcim", model: "site" }, scope: { __typename: "SiteType", slug: "ams1" } },
      ],
    });
  });

  it("takes variables, fragments, aliases, an operation name and GET", async () => {
    const query = `fragment Basics on DeviceType { name status }
      query One($id: ID!) { device(id: $id) { ...Basics } }
      query Many($f: DeviceFilter) { first: device_list(filters: $f) { ...Basics } again: device_list(filters: $f) { name } }`;
    const one = await api.post("/graphql/", { query, variables: { id: String(ids.leaf2) }, operationName: "One" });
    expect(one.body).toEqual({ data: { device: { name: "leaf2", status: "offline" } } });
    const many = await api.post("/graphql/", { query, variables: { f: { site: ["fra1"] } }, operationName: "Many" });
    expect(many.body).toEqual({ data: { first: [{ name: "edge1", status: "active" }], again: [{ name: "edge1" }] } });
    const get = await api.get(`/graphql/?query=${encodeURIComponent(`{ site(id: ${ids.fra}) { name status } }`)}`);
    expect(get.status).toBe(200);
    expect(get.body).toEqual({ data: { site: { name: "fra1", status: "planned" } } });
  });

  it("answers errors as NetBox does: in the body with status 200", async () => {
    const missing = await gql(`{ site(id: 999999) { id } device(id: ${ids.leaf1}) { name } }`);
    expect(missing.status).toBe(200);
    expect(missing.body).toEqual({
      data: null,
      errors: [{ message: "Site matching query does not exist.", locations: [{ line: 1, column: 3 }], path: ["site"] }],
    });
    const unknown = await gql(`{ no_such_query { id } }`);
    expect(unknown.body.errors[0].message).toBe(`Cannot query field 'no_such_query' on type 'Query'.`);
    const syntax = await gql(`{ device(id: 1) { name `);
    expect(syntax.body.errors[0].message).toMatch(/^Syntax Error/);
    const argument = await gql(`{ device { name } }`);
    expect(argument.body.errors[0].message).toBe(`Field 'device' argument 'id' of type 'ID!' is required, but it was not provided.`);
    const mutation = await gql(`mutation { site_list { id } }`);
    expect(mutation.body.errors[0].message).toBe("Schema is not configured to execute mutation operation.");
    const bad = await api.post("/graphql/", { variables: {} });
    expect(bad.status).toBe(400);
  });

  it("answers introspection with graphql-js, beside data", async () => {
    const reply = await gql(
      `{ __schema { queryType { name } mutationType { name } } __type(name: "DeviceType") { kind } site_list(filters: {slug: {exact: "fra1"}}) { name } }`,
    );
    expect(reply.body).toEqual({
      data: { __schema: { queryType: { name: "Query" }, mutationType: null }, __type: { kind: "OBJECT" }, site_list: [{ name: "fra1" }] },
    });
  });
});

describe("GraphQL permissions", () => {
  it("needs authentication while LOGIN_REQUIRED, as REST does", async () => {
    const reply = await gql(`{ site_list { name } }`, undefined, null);
    expect(reply.status).toBe(403);
    expect(reply.body).toEqual({ detail: "Authentication credentials were not provided." });
  });

  it("shows only what the requester may view, at every depth, and never tells what it hides", async () => {
    const token = await api.token({ superuser: false, username: "viewer" });
    const user = (await api.get("/api/users/users/?username=viewer")).body.results[0];
    await make("/api/users/permissions/", {
      name: "ams devices",
      object_types: ["dcim.device", "dcim.site", "dcim.interface"],
      actions: ["view"],
      users: [user.id],
    });
    await make("/api/users/permissions/", {
      name: "cable view constrained",
      object_types: ["dcim.cable"],
      actions: ["view"],
      constraints: { label: "none" },
      users: [user.id],
    });
    // Devices of ams1 only: a constraint on the device permission.
    const perms = (await api.get("/api/users/permissions/?name=ams devices")).body.results[0];
    await api.patch(`/api/users/permissions/${perms.id}/`, { object_types: ["dcim.site", "dcim.interface"] });
    await make("/api/users/permissions/", {
      name: "devices at ams1",
      object_types: ["dcim.device"],
      actions: ["view"],
      constraints: { site__slug: "ams1" },
      users: [user.id],
    });
    const reply = await gql(
      `{ device_list { name primary_ip4 { address } interfaces(filters: {name: {exact: "Ethernet1"}}) { ip_addresses { address } cable { label } } }
         site_list { name devices { name } } }`,
      undefined,
      token,
    );
    expect(reply.body.errors, reply.text).toBeUndefined();
    expect(reply.body.data).toEqual({
      // No permission on IP addresses: null and empty; the cable's constraint hides it.
      device_list: [
        { name: "leaf1", primary_ip4: null, interfaces: [{ ip_addresses: [], cable: null }] },
        { name: "leaf2", primary_ip4: null, interfaces: [{ ip_addresses: [], cable: null }] },
      ],
      site_list: [
        { name: "ams1", devices: [{ name: "leaf1" }, { name: "leaf2" }] },
        { name: "fra1", devices: [] },
      ],
    });
    const hidden = await gql(`{ device(id: ${ids.edge1}) { name } }`, undefined, token);
    expect(hidden.body.errors[0].message).toBe("Device matching query does not exist.");
    const none = await gql(`{ ip_address(id: ${ids.ip2}) { address } ip_address_list { address } }`, undefined, token);
    expect(none.body.errors[0].message).toBe("IPAddress matching query does not exist.");
    const list = await gql(`{ ip_address_list { address } }`, undefined, token);
    expect(list.body).toEqual({ data: { ip_address_list: [] } });
  });
});

describe("GraphQL limits", () => {
  it("refuses a query deeper than GRAPHQL_MAX_DEPTH, with more aliases than GRAPHQL_MAX_ALIASES, or costing more than GRAPHQL_MAX_COST, before it runs", async () => {
    let deep = "name";
    for (let i = 0; i < 6; i++) deep = `name devices { site { ${deep} } }`;
    const tooDeep = await gql(`{ site_list { ${deep} } }`);
    expect(tooDeep.body.data).toBeNull();
    expect(tooDeep.body.errors[0].message).toBe("The query nests 14 levels deep, more than GRAPHQL_MAX_DEPTH (10).");
    const aliases = Array.from({ length: 31 }, (_, i) => `a${i}: site_list { name }`).join(" ");
    const tooMany = await gql(`{ ${aliases} }`);
    expect(tooMany.body.errors[0].message).toBe("The query has 31 aliases, more than GRAPHQL_MAX_ALIASES (30).");
    const costly = await gql(
      `{ site_list { devices { interfaces { ip_addresses { assigned_object { ... on InterfaceType { device { interfaces { name } } } } } } } } }`,
    );
    expect(costly.body.errors[0].message).toMatch(/^The query costs \d+, more than GRAPHQL_MAX_COST \(1000000\)/);
    let nested = `{name: {exact: "x"}}`;
    for (let i = 0; i < 12; i++) nested = `{OR: ${nested}}`;
    const deepFilter = await gql(`{ site_list(filters: ${nested}) { name } }`);
    expect(deepFilter.status).toBe(200);
    expect(deepFilter.body.errors[0].message).toBe("A filter may nest AND, OR and NOT at most 8 deep.");
    // Paged, the same query is within the budget.
    const paged = await gql(
      `{ site_list(pagination: {limit: 2}) { devices(pagination: {limit: 5}) { interfaces(pagination: {limit: 5}) { ip_addresses(pagination: {limit: 5}) { assigned_object { ... on InterfaceType { device { interfaces { name } } } } } } } } }`,
    );
    expect(paged.body.errors, paged.text).toBeUndefined();
  });

  it("runs a query as deep as the limit allows: the statement stays shallow for SQLite's parser", async () => {
    let deep = "name";
    for (let i = 0; i < 4; i++) deep = `name devices(pagination: {limit: 3}) { site { ${deep} } }`;
    const reply = await gql(`{ site_list { region { slug } ${deep} } }`);
    expect(reply.body.errors, reply.text).toBeUndefined();
    expect(reply.body.data.site_list[0].devices[0].site.devices[0].site.devices[0].site.name).toBe("ams1");
  });
});

describe("GraphQL cost", () => {
  const nested = `{ device_list(filters: {site: ["ams1"]}) { name site { name } interfaces { name ip_addresses { address } link_peers { ... on InterfaceType { name device { name } } } } } }`;

  it("answers a nested query in one round trip, and compiles a repeated one never again", async () => {
    await gql(nested);
    const work = await api.work(() => gql(nested));
    expect(work.roundTrips).toBe(1);
    expect(work.compilations).toBe(0);
    expect(work.newTexts).toBe(0);
    expectBaseline("graphql", "devices_interfaces_addresses_peers", work);
    await gql(`{ device(id: ${ids.leaf1}) { name interfaces { name } } }`);
    expectBaseline(
      "graphql",
      "device_detail_interfaces",
      await api.work(() => gql(`{ device(id: ${ids.leaf1}) { name interfaces { name } } }`)),
    );
  });
});

describe("GraphQL answers", () => {
  it("hand a long answer over as the bytes it was made of, its text the same through the web Response", async () => {
    await make(
      "/api/extras/tags/",
      Array.from({ length: 800 }, (_, i) => ({ name: `bulk-tag-${i}`, slug: `bulk-tag-${i}`, description: "é".repeat(40) })),
    );
    const query = "{ tag_list { id name slug color description } }";
    const response = await api.app.fetch(
      new Request("http://inventory.test/graphql/", {
        method: "POST",
        headers: { Authorization: `Token ${ADMIN_TOKEN}`, "Content-Type": "application/json" },
        body: JSON.stringify({ query }),
      }),
      { db: api.db, clientAddress: "127.0.0.1", waitUntil: () => {}, assets: packageAssets },
    );
    const made = bodyOf(response);
    expect(made).toBeInstanceOf(Uint8Array);
    const text = await response.text();
    expect(new TextDecoder().decode(made as Uint8Array)).toBe(text);
    const tags = JSON.parse(text).data.tag_list;
    expect(tags.filter((t: { name: string }) => t.name.startsWith("bulk-tag-"))).toHaveLength(800);
    expect(tags.find((t: { name: string }) => t.name === "bulk-tag-799").description).toBe("é".repeat(40));
  });
});
