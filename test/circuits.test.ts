import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "./support/harness.ts";
import { make } from "./contract/fixtures.ts";

let api: Harness;
const ids: Record<string, number> = {};
const circuitIds = async (query: string) =>
  (await api.get(`/api/circuits/circuits/?${query}&limit=0`)).body.results.map((c: any) => c.cid).sort();

beforeAll(async () => {
  api = await createHarness();
  ids.eu = await make(api, "/api/dcim/regions/", { name: "Europe", slug: "eu" });
  ids.de = await make(api, "/api/dcim/regions/", { name: "Germany", slug: "de", parent: ids.eu });
  ids.fra = await make(api, "/api/dcim/sites/", { name: "FRA1", slug: "fra1", region: ids.de });
  ids.nyc = await make(api, "/api/dcim/sites/", { name: "NYC1", slug: "nyc1" });
  ids.cage = await make(api, "/api/dcim/locations/", { name: "Cage 4", slug: "cage-4", site: ids.fra });
  ids.telco = await make(api, "/api/circuits/providers/", { name: "Telco", slug: "telco" });
  ids.other = await make(api, "/api/circuits/providers/", { name: "Other", slug: "other" });
  ids.transit = await make(api, "/api/circuits/circuit-types/", { name: "Transit", slug: "transit" });
  ids.cloud = await make(api, "/api/circuits/provider-networks/", { provider: ids.telco, name: "Cloud" });
  ids.tenant = await make(api, "/api/tenancy/tenants/", { name: "Customer", slug: "customer" });
  ids.c1 = await make(api, "/api/circuits/circuits/", { cid: "C1", provider: ids.telco, type: ids.transit, tenant: ids.tenant });
  ids.c2 = await make(api, "/api/circuits/circuits/", { cid: "C2", provider: ids.telco, type: { slug: "transit" } });
  ids.c3 = await make(api, "/api/circuits/circuits/", { cid: "C3", provider: ids.other, type: ids.transit });
});
afterAll(() => api.close());

const terminations = "/api/circuits/circuit-terminations/";

describe("circuit terminations", () => {
  it("are unique per circuit and side, and read their side as the bare value", async () => {
    const a = await api.post(terminations, {
      circuit: ids.c1,
      term_side: "A",
      termination_type: "dcim.site",
      termination_id: ids.fra,
      port_speed: 10000,
    });
    expect(a.status, a.text).toBe(201);
    expect(a.body.term_side).toBe("A");
    expect(a.body.display).toBe("C1: Termination A");
    expect(a.body.termination).toMatchObject({ id: ids.fra, name: "FRA1", slug: "fra1" });
    ids.c1a = a.body.id;
    const twin = await api.post(terminations, { circuit: ids.c1, term_side: "A", termination_type: "dcim.site", termination_id: ids.nyc });
    expect(twin).toMatchObject({
      status: 400,
      body: { __all__: ["Circuit termination with this Circuit and Termination side already exists."] },
    });
    const side = await api.post(terminations, { circuit: ids.c1, term_side: "B", termination_type: "dcim.site", termination_id: ids.nyc });
    expect(side).toMatchObject({ status: 400, body: { term_side: ['"B" is not a valid choice.'] } });
    // The same side of another circuit is fine, and so is the other side of this one.
    ids.c2a = await make(api, terminations, {
      circuit: ids.c2,
      term_side: "A",
      termination_type: "dcim.location",
      termination_id: ids.cage,
    });
    ids.c1z = await make(api, terminations, {
      circuit: ids.c1,
      term_side: "Z",
      termination_type: "circuits.providernetwork",
      termination_id: ids.cloud,
    });
    const moved = await api.patch(`${terminations}${ids.c2a}/`, { term_side: "A" });
    expect(moved.status, moved.text).toBe(200);
  });

  it("attach to a region, site group, site, location or provider network, and to something", async () => {
    const base = { circuit: ids.c3, term_side: "A" };
    const device = await api.post(terminations, { ...base, termination_type: "dcim.device", termination_id: 1 });
    expect(device.status).toBe(400);
    expect(device.body.termination_type[0]).toMatch(
      /^Object type must be one of: dcim\.region, dcim\.sitegroup, dcim\.site, dcim\.location, circuits\.providernetwork/,
    );
    const missing = await api.post(terminations, { ...base, termination_type: "dcim.site", termination_id: 999999 });
    expect(missing).toMatchObject({
      status: 400,
      body: { termination_id: ["Related object not found using the provided numeric ID: 999999"] },
    });
    const half = await api.post(terminations, { ...base, termination_type: "dcim.site" });
    expect(half).toMatchObject({ status: 400, body: { termination_id: ["This field is required."] } });
    const none = await api.post(terminations, base);
    expect(none).toMatchObject({ status: 400, body: { non_field_errors: ["A circuit termination must attach to a terminating object."] } });
    const cleared = await api.patch(`${terminations}${ids.c1a}/`, { termination_type: null, termination_id: null });
    expect(cleared).toMatchObject({
      status: 400,
      body: { non_field_errors: ["A circuit termination must attach to a terminating object."] },
    });
    const region = await api.post(terminations, { ...base, termination_type: "dcim.region", termination_id: ids.eu });
    expect(region.status, region.text).toBe(201);
    expect(region.body.termination).toMatchObject({ id: ids.eu, slug: "eu" });
    ids.c3a = region.body.id;
  });

  it("filter by the site, location, region and provider network they land in", async () => {
    const sides = async (query: string) =>
      (await api.get(`${terminations}?${query}&limit=0`)).body.results.map((t: any) => t.display).sort();
    expect(await sides(`site_id=${ids.fra}`)).toEqual(["C1: Termination A", "C2: Termination A"]);
    expect(await sides("site=fra1")).toEqual(["C1: Termination A", "C2: Termination A"]);
    expect(await sides(`location_id=${ids.cage}`)).toEqual(["C2: Termination A"]);
    expect(await sides("region=eu")).toEqual(["C1: Termination A", "C2: Termination A", "C3: Termination A"]);
    expect(await sides(`provider_network_id=${ids.cloud}`)).toEqual(["C1: Termination Z"]);
    expect(await sides("provider=other")).toEqual(["C3: Termination A"]);
    expect(await sides("termination_type=dcim.location")).toEqual(["C2: Termination A"]);
    expect(await sides("term_side=Z")).toEqual(["C1: Termination Z"]);
    expect((await api.get(`${terminations}?site=nowhere`)).body).toEqual({
      site: ["Select a valid choice. nowhere is not one of the available choices."],
    });
  });
});

describe("circuits", () => {
  it("show their A and Z terminations, with what they attach to", async () => {
    const c1 = (await api.get(`/api/circuits/circuits/${ids.c1}/`)).body;
    expect(Object.keys(c1.termination_a).sort()).toEqual([
      "description",
      "display",
      "display_url",
      "id",
      "port_speed",
      "termination",
      "termination_id",
      "termination_type",
      "upstream_speed",
      "url",
      "xconnect_id",
    ]);
    expect(c1.termination_a).toMatchObject({
      id: ids.c1a,
      display: "C1: Termination A",
      termination_type: "dcim.site",
      termination_id: ids.fra,
      port_speed: 10000,
      upstream_speed: null,
    });
    expect(c1.termination_a.termination).toMatchObject({ id: ids.fra, name: "FRA1" });
    expect(c1.termination_z).toMatchObject({
      id: ids.c1z,
      termination_type: "circuits.providernetwork",
      termination: { id: ids.cloud, name: "Cloud" },
    });
    const c2 = (await api.get(`/api/circuits/circuits/${ids.c2}/`)).body;
    expect(c2.termination_a.id).toBe(ids.c2a);
    expect(c2.termination_z).toBeNull();
    // Moving a termination to the other side moves it on the circuit too.
    await api.patch(`${terminations}${ids.c2a}/`, { term_side: "Z" });
    const moved = (await api.get(`/api/circuits/circuits/${ids.c2}/`)).body;
    expect([moved.termination_a, moved.termination_z?.id]).toEqual([null, ids.c2a]);
    await api.patch(`${terminations}${ids.c2a}/`, { term_side: "A" });
    expect(await circuitIds(`termination_a_id=${ids.c1a}`)).toEqual(["C1"]);
    expect(await circuitIds(`termination_z_id=${ids.c1z}`)).toEqual(["C1"]);
  });

  it("filter by where they terminate, with sub-regions and a site's locations", async () => {
    expect(await circuitIds(`site_id=${ids.fra}`)).toEqual(["C1", "C2"]);
    expect(await circuitIds("site=fra1&site=nyc1")).toEqual(["C1", "C2"]);
    expect(await circuitIds("region=eu")).toEqual(["C1", "C2", "C3"]);
    expect(await circuitIds(`region_id=${ids.de}`)).toEqual(["C1", "C2"]);
    expect(await circuitIds(`provider_network_id=${ids.cloud}`)).toEqual(["C1"]);
    // C3 terminates at a region only: at no site.
    expect(await circuitIds("site_id=null")).toEqual(["C3"]);
    expect(await circuitIds("provider=telco&type=transit")).toEqual(["C1", "C2"]);
    expect(await circuitIds(`tenant_id=${ids.tenant}`)).toEqual(["C1"]);
    const providers = (await api.get(`/api/circuits/providers/?site_id=${ids.fra}`)).body.results.map((p: any) => p.slug);
    expect(providers).toEqual(["telco"]);
  });

  it("are counted on their provider, type, tenant and the sites they terminate at", async () => {
    expect((await api.get(`/api/circuits/providers/${ids.telco}/`)).body.circuit_count).toBe(2);
    expect((await api.get(`/api/circuits/circuit-types/?brief=1`)).body.results[0]).toMatchObject({ slug: "transit", circuit_count: 3 });
    expect((await api.get(`/api/tenancy/tenants/${ids.tenant}/`)).body.circuit_count).toBe(1);
    // C1 (at the site) and C2 (at one of its locations): two circuits, counted once each.
    expect((await api.get(`/api/dcim/sites/${ids.fra}/`)).body.circuit_count).toBe(2);
    expect((await api.get(`/api/dcim/sites/${ids.nyc}/`)).body.circuit_count).toBe(0);
  });

  it("keep their account within their provider, and list a provider's accounts", async () => {
    const account = await make(api, "/api/circuits/provider-accounts/", { provider: ids.telco, account: "ACC-1", name: "Main" });
    const provider = (await api.get(`/api/circuits/providers/${ids.telco}/`)).body;
    expect(provider.accounts).toEqual([expect.objectContaining({ id: account, account: "ACC-1", name: "Main", display: "ACC-1 (Main)" })]);
    const foreign = await api.post("/api/circuits/circuits/", {
      cid: "X1",
      provider: ids.other,
      provider_account: account,
      type: ids.transit,
    });
    expect(foreign).toMatchObject({
      status: 400,
      body: { provider_account: ["The assigned account must belong to the assigned provider."] },
    });
    const own = await api.patch(`/api/circuits/circuits/${ids.c2}/`, { provider_account: { account: "ACC-1" } });
    expect(own.status, own.text).toBe(200);
    expect(own.body.provider_account).toMatchObject({ id: account, account: "ACC-1" });
    // Changing only the provider keeps the stored account, which then no longer fits.
    const moved = await api.patch(`/api/circuits/circuits/${ids.c2}/`, { provider: ids.other });
    expect(moved).toMatchObject({
      status: 400,
      body: { provider_account: ["The assigned account must belong to the assigned provider."] },
    });
    expect(await circuitIds("provider_account=ACC-1")).toEqual(["C2"]);
    // Account names are unique per provider, but any number may have none.
    const named = await api.post("/api/circuits/provider-accounts/", { provider: ids.telco, account: "ACC-2", name: "Main" });
    expect(named).toMatchObject({ status: 400, body: { __all__: ["Provider account with this Provider and Name already exists."] } });
    for (const account of ["ACC-3", "ACC-4"]) await make(api, "/api/circuits/provider-accounts/", { provider: ids.telco, account });
    expect((await api.post("/api/circuits/provider-accounts/", { provider: ids.other, account: "ACC-1", name: "Main" })).status).toBe(201);
  });

  it("validate dates, distance and unit", async () => {
    const body = { cid: "D1", provider: ids.telco, type: ids.transit };
    const bad = await api.post("/api/circuits/circuits/", { ...body, install_date: "2024-02-30", distance_unit: "parsec" });
    expect(bad.status).toBe(400);
    expect(bad.body.install_date).toEqual(["Date has wrong format. Use one of these formats instead: YYYY-MM-DD."]);
    expect(bad.body.distance_unit).toEqual(["parsec is not a valid choice."]);
    const good = await api.post("/api/circuits/circuits/", { ...body, install_date: "2024-2-3", distance: 12.5, distance_unit: "km" });
    expect(good.status, good.text).toBe(201);
    expect([good.body.install_date, good.body.distance, good.body.distance_unit]).toEqual([
      "2024-02-03",
      12.5,
      { value: "km", label: "Kilometers" },
    ]);
    expect(await circuitIds("install_date__gte=2024-01-01")).toEqual(["D1"]);
    await api.delete(`/api/circuits/circuits/${good.body.id}/`);
  });

  it("belong to groups with a priority, shown on the circuit and counted on the group", async () => {
    const group = await make(api, "/api/circuits/circuit-groups/", { name: "Ring", slug: "ring" });
    const assignment = await api.post("/api/circuits/circuit-group-assignments/", {
      member_type: "circuits.circuit",
      member_id: ids.c1,
      group,
      priority: "primary",
    });
    expect(assignment.status, assignment.text).toBe(201);
    expect(assignment.body.member).toMatchObject({ id: ids.c1, cid: "C1" });
    expect(assignment.body.display).toBe("Ring (Primary)");
    const twin = await api.post("/api/circuits/circuit-group-assignments/", { member_type: "circuits.circuit", member_id: ids.c1, group });
    expect(twin.status).toBe(400);
    const site = await api.post("/api/circuits/circuit-group-assignments/", { member_type: "dcim.site", member_id: ids.fra, group });
    expect(site.status).toBe(400);
    const c1 = (await api.get(`/api/circuits/circuits/${ids.c1}/`)).body;
    expect(c1.assignments).toEqual([
      expect.objectContaining({ id: assignment.body.id, group: expect.objectContaining({ id: group, name: "Ring" }), priority: "primary" }),
    ]);
    expect((await api.get(`/api/circuits/circuits/${ids.c2}/`)).body.assignments).toEqual([]);
    expect((await api.get(`/api/circuits/circuit-groups/${group}/`)).body.circuit_count).toBe(1);
    const found = await api.get("/api/circuits/circuit-group-assignments/?circuit=C1&provider=telco");
    expect(found.body.results.map((a: any) => a.id)).toEqual([assignment.body.id]);
    expect((await api.get(`/api/circuits/circuit-group-assignments/?circuit_id=${ids.c3}`)).body.count).toBe(0);
  });

  it("take their terminations with them, and lose those whose object is deleted", async () => {
    const site = await make(api, "/api/dcim/sites/", { name: "Temp", slug: "temp" });
    const circuit = await make(api, "/api/circuits/circuits/", { cid: "TMP", provider: ids.telco, type: ids.transit });
    const term = await make(api, terminations, { circuit, term_side: "A", termination_type: "dcim.site", termination_id: site });
    expect((await api.delete(`/api/dcim/sites/${site}/`)).status).toBe(204);
    expect((await api.get(`${terminations}${term}/`)).status).toBe(404);
    const again = await make(api, terminations, { circuit, term_side: "A", termination_type: "dcim.site", termination_id: ids.nyc });
    expect((await api.delete(`/api/circuits/circuits/${circuit}/`)).status).toBe(204);
    expect((await api.get(`${terminations}${again}/`)).status).toBe(404);
  });
});
