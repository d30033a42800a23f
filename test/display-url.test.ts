/**
 * `display_url`, as NetBox 4.2 gives it: the absolute URL of the object's page for people
 * (`/dcim/sites/7/`, NetBox's UI path) on every full representation, never on the brief form,
 * and on nested objects only where NetBox nests with its older `Nested*` serializers (tags, a
 * tree's parent, an interface's LAG, ...); relative in webhook data. Following it in a browser
 * leads to the object's browsable API page.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, ORIGIN, type Harness } from "./support/harness.ts";
import { startReceiver } from "./support/receiver.ts";

describe("display_url", () => {
  let api: Harness;
  let rx: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    api = await createHarness();
    rx = await startReceiver();
  });
  afterAll(async () => {
    api.close();
    await rx.close();
  });

  it("is on the full form after url, and on the brief form never", async () => {
    const europe = await api.post("/api/dcim/regions/", { name: "Europe", slug: "europe" });
    const tag = await api.post("/api/extras/tags/", { name: "Gold", slug: "gold" });
    const site = await api.post("/api/dcim/sites/", { name: "DC1", slug: "dc1", region: europe.body.id, tags: [tag.body.id] });
    expect(site.status, site.text).toBe(201);
    const full = (await api.get(`/api/dcim/sites/${site.body.id}/`)).body;
    expect(Object.keys(full).slice(0, 4)).toEqual(["id", "url", "display_url", "display"]);
    expect(full.display_url).toBe(`${ORIGIN}/dcim/sites/${site.body.id}/`);
    expect(site.body.display_url).toBe(full.display_url);
    expect((await api.get("/api/dcim/sites/?limit=1")).body.results[0].display_url).toBe(full.display_url);
    expect((await api.get(`/api/dcim/sites/${site.body.id}/?brief=1`)).body).not.toHaveProperty("display_url");
    expect((await api.get(`/api/dcim/sites/${site.body.id}/?fields=name,display_url`)).body).toEqual({
      name: "DC1",
      display_url: full.display_url,
    });
    // NetBox nests a site's region in its brief form, its tags with NestedTagSerializer.
    expect(full.region).not.toHaveProperty("display_url");
    expect(Object.keys(full.tags[0]).slice(0, 4)).toEqual(["id", "url", "display_url", "display"]);
    expect(full.tags[0]).toMatchObject({
      id: tag.body.id,
      url: `${ORIGIN}/api/extras/tags/${tag.body.id}/`,
      display_url: `${ORIGIN}/extras/tags/${tag.body.id}/`,
      name: "Gold",
    });
    const germany = await api.post("/api/dcim/regions/", { name: "Germany", slug: "germany", parent: europe.body.id });
    expect(germany.body.parent).toMatchObject({ id: europe.body.id, display_url: `${ORIGIN}/dcim/regions/${europe.body.id}/` });
  });

  it("names NetBox's page where its UI path differs from the API's, and our own page where we serve one", async () => {
    const set = await api.post("/api/extras/custom-field-choice-sets/", { name: "Colours", extra_choices: [["red", "Red"]] });
    expect(set.body.display_url).toBe(`${ORIGIN}/extras/custom-field-choices/${set.body.id}/`);
    const [change] = (await api.get(`/api/core/object-changes/?request_id=${set.headers.get("X-Request-ID")}`)).body.results;
    expect(change.display_url).toBe(`${ORIGIN}/core/changelog/${change.id}/`);
    // NetBox keeps no display_url in snapshots.
    expect(change.postchange_data).not.toHaveProperty("display_url");
    const webhook = await api.post("/api/extras/webhooks/", { name: "w", payload_url: `${rx.url}/hook` });
    await api.post("/api/extras/event-rules/", {
      name: "r",
      object_types: ["tenancy.tenant"],
      event_types: ["object_created"],
      action_object_type: "extras.webhook",
      action_object_id: webhook.body.id,
    });
    const tenant = await api.post("/api/tenancy/tenants/", { name: "Acme", slug: "acme" });
    await api.queue.drain();
    const [run] = (await api.get(`/api/extras/webhook-deliveries/?webhook_id=${webhook.body.id}`)).body.results;
    expect(run.display_url).toBe(`${ORIGIN}/admin/webhook-deliveries/${run.id}/`);
    // In webhook data it is relative, as NetBox renders it without a request.
    const body = JSON.parse(rx.received[0].body);
    expect(body.data.display_url).toBe(`/tenancy/tenants/${tenant.body.id}/`);
    expect(body.snapshots.postchange).not.toHaveProperty("display_url");
  });

  it("leads a browser to the object's browsable API page", async () => {
    const tenant = await api.post("/api/tenancy/tenants/", { name: "Page", slug: "page" });
    const page = await api.get(new URL(tenant.body.display_url).pathname);
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toBe(tenant.body.url);
    const change = (await api.get("/api/core/object-changes/?limit=1")).body.results[0];
    expect((await api.get(new URL(change.display_url).pathname)).headers.get("Location")).toBe(change.url);
    expect((await api.get("/dcim/nothing/1/")).status).toBe(404);
    expect((await api.get("/tenancy/tenants/abc/")).status).toBe(404);
    expect((await api.post(new URL(tenant.body.display_url).pathname, {})).status).toBe(405);
  });

  it("is listed by OPTIONS and the OpenAPI document where it is served", async () => {
    const options = (await api.request("OPTIONS", "/api/dcim/regions/")).body.actions.POST;
    expect(Object.keys(options).slice(0, 4)).toEqual(["id", "url", "display_url", "display"]);
    expect(options.parent.children).toHaveProperty("display_url");
    expect((await api.request("OPTIONS", "/api/dcim/sites/")).body.actions.POST.region.children).not.toHaveProperty("display_url");
    const schemas = (await api.get("/api/schema/?format=json")).body.components.schemas;
    expect(schemas.Site.required).toContain("display_url");
    expect(schemas.BriefSite.properties).not.toHaveProperty("display_url");
    expect(schemas.NestedTag.properties).toHaveProperty("display_url");
  });
});
