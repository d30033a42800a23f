/**
 * NetBox 4.2's remaining extras through HTTP: bookmarks, custom links, export templates (and
 * `?export=` rendering), saved filters, notification groups, notifications, subscriptions, the
 * requester's dashboard, scripts (none run here), and the fields and filters that came with them
 * (webhook secrets, users' permissions, token keys, object type lookups).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "./support/harness.ts";
import { make } from "./contract/fixtures.ts";

let api: Harness;
const id: Record<string, number> = {};
/** A plain user's token (NetBox's default permissions only), and a second plain user's. */
let alice: string;
let bob: string;

const ids = async (path: string, options = {}) => {
  const reply = await api.get(path, options);
  expect(reply.status, `${path}: ${reply.text}`).toBe(200);
  return reply.body.results.map((o: any) => o.id) as number[];
};
const userIdOf = async (token: string) => (await api.get("/api/users/tokens/", { token })).body.results[0].user.id as number;

beforeAll(async () => {
  api = await createHarness();
  alice = await api.token({ superuser: false, username: "alice" });
  bob = await api.token({ superuser: false, username: "bob" });
  id.alice = await userIdOf(alice);
  id.bob = await userIdOf(bob);
  id.ber = await make(api, "/api/dcim/sites/", { name: "Berlin", slug: "ber" });
  id.tok = await make(api, "/api/dcim/sites/", { name: "Tokyo", slug: "tok" });
  id.tenant = await make(api, "/api/tenancy/tenants/", { name: "Acme", slug: "acme" });
  // Plain users bookmark and subscribe to what they may view: tenants.
  id.other = await make(api, "/api/tenancy/tenants/", { name: "Other", slug: "other" });
  await make(api, "/api/users/permissions/", {
    name: "View tenants",
    object_types: ["tenancy.tenant"],
    actions: ["view"],
    users: [id.alice, id.bob],
  });
});
afterAll(() => api.close());

describe("bookmarks", () => {
  it("are the requester's by default, show their object, and are unique per object and user", async () => {
    const made = await api.post("/api/extras/bookmarks/", { object_type: "dcim.site", object_id: id.ber });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({
      object_type: "dcim.site",
      object_id: id.ber,
      display: `dcim.site ${id.ber}`,
      object: { id: id.ber, name: "Berlin" },
    });
    expect(made.body.user.username).toBe("admin");
    const again = await api.post("/api/extras/bookmarks/", { object_type: "dcim.site", object_id: id.ber });
    expect(again.status).toBe(400);
    const brief = await api.get(`/api/extras/bookmarks/${made.body.id}/?brief=1`);
    expect(Object.keys(brief.body).sort()).toEqual(["display", "id", "object", "object_id", "object_type", "url"]);
    expect((await api.post("/api/extras/bookmarks/", { object_type: "dcim.site", object_id: 999999 })).status).toBe(400);
    expect((await api.post("/api/extras/bookmarks/", { object_type: "extras.bookmark", object_id: 1 })).status).toBe(400);
  });

  it("are each user's own under NetBox's default permissions", async () => {
    const own = await api.post("/api/extras/bookmarks/", { object_type: "tenancy.tenant", object_id: id.tenant }, { token: alice });
    expect(own.status, own.text).toBe(201);
    expect(own.body.user.id).toBe(id.alice);
    expect(await ids("/api/extras/bookmarks/", { token: alice })).toEqual([own.body.id]);
    expect(await ids("/api/extras/bookmarks/", { token: bob })).toEqual([]);
    // Naming another user is outside the default permission's constraint.
    const other = await api.post(
      "/api/extras/bookmarks/",
      { object_type: "tenancy.tenant", object_id: id.other, user: id.bob },
      { token: alice },
    );
    expect([400, 403]).toContain(other.status);
    expect((await api.delete(`/api/extras/bookmarks/${own.body.id}/`, undefined, { token: bob })).status).toBe(404);
    // The superuser sees everyone's, and filters them.
    expect((await ids(`/api/extras/bookmarks/?user_id=${id.alice}`)).length).toBe(1);
    expect(await ids("/api/extras/bookmarks/?object_type=tenancy.tenant")).toEqual([own.body.id]);
    expect(await ids("/api/extras/bookmarks/?object_type__n=dcim.site")).toEqual([own.body.id]);
    expect(await ids("/api/extras/bookmarks/?object_type__ic=TENANT")).toEqual([own.body.id]);
    const siteType = (await api.get("/api/extras/object-types/?app_label=dcim&model=site")).body.results[0].id;
    expect((await ids(`/api/extras/bookmarks/?object_type_id=${siteType}`)).length).toBe(1);
    expect(await ids(`/api/extras/bookmarks/?object_type_id__n=${siteType}`)).toEqual([own.body.id]);
    expect((await api.delete(`/api/extras/bookmarks/${own.body.id}/`, undefined, { token: alice })).status).toBe(204);
  });
});

describe("custom links", () => {
  it("keep their templates, refuse bad ones and unknown object types, and filter by object type", async () => {
    const made = await api.post("/api/extras/custom-links/", {
      name: "Wiki",
      object_types: ["dcim.site"],
      link_text: "Wiki of {{name}}",
      link_url: "https://wiki.example.com/{{slug}}",
      group_name: "Docs",
      button_class: "blue",
      new_window: true,
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ enabled: true, weight: 100, button_class: { value: "blue", label: "Blue" }, new_window: true });
    const bad = await api.post("/api/extras/custom-links/", {
      name: "Bad",
      object_types: ["dcim.site"],
      link_text: "{{#open}}",
      link_url: "x",
    });
    expect(bad.status).toBe(400);
    expect(bad.body.link_text).toBeDefined();
    const unknown = await api.post("/api/extras/custom-links/", {
      name: "Odd",
      object_types: ["dcim.nothing"],
      link_text: "x",
      link_url: "y",
    });
    expect(unknown.body).toEqual({ object_types: ["Invalid object type: dcim.nothing"] });
    expect(await ids("/api/extras/custom-links/?object_type=dcim.site")).toEqual([made.body.id]);
    expect(await ids("/api/extras/custom-links/?object_type__isw=dcim.")).toEqual([made.body.id]);
    expect(await ids("/api/extras/custom-links/?object_type__nic=site")).toEqual([]);
    expect(await ids("/api/extras/custom-links/?group_name=Docs&new_window=true")).toEqual([made.body.id]);
  });
});

describe("export templates", () => {
  it("render a model's list, filtered, with their MIME type and as an attachment", async () => {
    const made = await api.post("/api/extras/export-templates/", {
      name: "CSV",
      object_types: ["dcim.site"],
      template_code: "name,slug\n{{#queryset}}{{name}},{{slug}}\n{{/queryset}}",
      mime_type: "text/csv",
      file_extension: "csv",
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ as_attachment: true, data_source: null, data_file: null, data_path: "", data_synced: null });
    const all = await api.get("/api/dcim/sites/?export=CSV");
    expect(all.status, all.text).toBe(200);
    expect(all.headers.get("Content-Type")).toBe("text/csv");
    expect(all.headers.get("Content-Disposition")).toBe('attachment; filename="netbox_sites.csv"');
    expect(all.text).toBe("name,slug\nBerlin,ber\nTokyo,tok\n");
    // The list's filters and ordering apply; the page does not.
    expect((await api.get("/api/dcim/sites/?export=CSV&slug=tok&limit=1")).text).toBe("name,slug\nTokyo,tok\n");
    expect((await api.get("/api/dcim/sites/?export=CSV&ordering=-name")).text).toBe("name,slug\nTokyo,tok\nBerlin,ber\n");
    // Another model's list, or an unknown name: 404.
    expect((await api.get("/api/tenancy/tenants/?export=CSV")).status).toBe(404);
    expect((await api.get("/api/dcim/sites/?export=Nothing")).status).toBe(404);
    // The requester's view permission applies: a user who may not view sites gets 403.
    expect((await api.get("/api/dcim/sites/?export=CSV", { token: alice })).status).toBe(403);
    // Shown inline when not an attachment; the default type is plain text.
    expect((await api.patch(`/api/extras/export-templates/${made.body.id}/`, { as_attachment: false, mime_type: "" })).status).toBe(200);
    const inline = await api.get("/api/dcim/sites/?export=CSV");
    expect(inline.headers.get("Content-Disposition")).toBeNull();
    expect(inline.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
  });

  it("refuse templates that do not parse and MIME types that could break a header", async () => {
    const base = { name: "X", object_types: ["dcim.site"] };
    expect((await api.post("/api/extras/export-templates/", { ...base, template_code: "{{/nothing}}" })).body.template_code).toBeDefined();
    const header = await api.post("/api/extras/export-templates/", { ...base, template_code: "x", mime_type: "text/csv\r\nX-Evil: 1" });
    expect(header.body.mime_type).toBeDefined();
    expect(await ids("/api/extras/export-templates/?object_type=dcim.site&as_attachment=false")).toHaveLength(1);
    expect(await ids("/api/extras/export-templates/?auto_sync_enabled=true")).toEqual([]);
  });
});

describe("saved filters", () => {
  it("keep their parameters as a JSON object, and their user as a bare id", async () => {
    const made = await api.post("/api/extras/saved-filters/", {
      name: "Active sites",
      slug: "active-sites",
      object_types: ["dcim.site"],
      parameters: { status: ["active"] },
      user: id.alice,
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ user: id.alice, shared: true, enabled: true, weight: 100, parameters: { status: ["active"] } });
    const list = await api.post("/api/extras/saved-filters/", { name: "L", slug: "l", object_types: ["dcim.site"], parameters: [1] });
    expect(list.body.parameters).toBeDefined();
    expect(await ids(`/api/extras/saved-filters/?user_id=${id.alice}&object_type=dcim.site`)).toEqual([made.body.id]);
    // `usable`: enabled, and shared or the requester's own.
    const mine = await make(api, "/api/extras/saved-filters/", {
      name: "Mine",
      slug: "mine",
      object_types: ["dcim.site"],
      parameters: {},
      shared: false,
      user: id.bob,
    });
    const off = await make(api, "/api/extras/saved-filters/", {
      name: "Off",
      slug: "off",
      object_types: ["dcim.site"],
      parameters: {},
      enabled: false,
    });
    const everyone = await ids("/api/extras/saved-filters/?usable=true");
    expect(everyone).toContain(made.body.id);
    expect(everyone).not.toContain(mine);
    expect(everyone).not.toContain(off);
    expect(await ids("/api/extras/saved-filters/?usable=false")).toEqual(expect.arrayContaining([mine, off]));
    const viewer = await make(api, "/api/users/permissions/", {
      name: "View filters",
      object_types: ["extras.savedfilter"],
      actions: ["view"],
      users: [id.bob],
    });
    expect(await ids("/api/extras/saved-filters/?usable=true", { token: bob })).toContain(mine);
    expect((await api.delete(`/api/users/permissions/${viewer}/`)).status).toBe(204);
  });
});

describe("notification groups", () => {
  it("hold users and groups, and users and groups filter by them", async () => {
    const group = await make(api, "/api/users/groups/", { name: "Ops" });
    const made = await api.post("/api/extras/notification-groups/", { name: "On call", users: [id.alice], groups: [group] });
    expect(made.status, made.text).toBe(201);
    expect(made.body.users.map((u: any) => u.username)).toEqual(["alice"]);
    expect(made.body.groups.map((g: any) => g.name)).toEqual(["Ops"]);
    expect(await ids(`/api/users/users/?notification_group_id=${made.body.id}`)).toEqual([id.alice]);
    expect(await ids(`/api/users/groups/?notification_group_id=${made.body.id}`)).toEqual([group]);
    expect(await ids(`/api/users/users/?notification_group_id__n=${made.body.id}`)).not.toContain(id.alice);
    expect((await api.get("/api/users/users/?notification_group_id=999999")).status).toBe(400);
  });
});

describe("notifications and subscriptions", () => {
  it("belong to a user, who alone reads and marks them", async () => {
    const note = await api.post("/api/extras/notifications/", {
      object_type: "tenancy.tenant",
      object_id: id.tenant,
      user: id.alice,
      event_type: "object_updated",
    });
    expect(note.status, note.text).toBe(201);
    expect(note.body).toMatchObject({ read: null, event_type: { value: "object_updated" }, object: { name: "Acme" } });
    expect(await ids("/api/extras/notifications/", { token: alice })).toEqual([note.body.id]);
    expect(await ids("/api/extras/notifications/", { token: bob })).toEqual([]);
    const read = await api.patch(`/api/extras/notifications/${note.body.id}/`, { read: "2026-01-02T03:04:05Z" }, { token: alice });
    expect(read.status, read.text).toBe(200);
    expect(read.body.read).toMatch(/^2026-01-02T03:04:05/);
    // NetBox's default permissions let users read, mark and delete theirs, not write new ones.
    const forged = await api.post(
      "/api/extras/notifications/",
      { object_type: "dcim.site", object_id: id.ber, event_type: "object_created" },
      { token: alice },
    );
    expect(forged.status).toBe(403);
  });

  it("subscribe the requester to an object, once", async () => {
    const body = { object_type: "tenancy.tenant", object_id: id.other };
    const sub = await api.post("/api/extras/subscriptions/", body, { token: bob });
    expect(sub.status, sub.text).toBe(201);
    expect(sub.body).toMatchObject({
      user: { id: id.bob },
      object: { id: id.other, name: "Other" },
      display: `tenancy.tenant ${id.other}`,
    });
    expect((await api.post("/api/extras/subscriptions/", body, { token: bob })).status).toBe(400);
    expect(await ids("/api/extras/subscriptions/", { token: alice })).toEqual([]);
    expect(await ids(`/api/extras/subscriptions/?user_id=${id.bob}&object_id=${id.other}`)).toEqual([sub.body.id]);
    // An object the requester may not view cannot be named.
    expect((await api.post("/api/extras/subscriptions/", { object_type: "dcim.site", object_id: id.ber }, { token: bob })).status).toBe(
      400,
    );
  });
});

describe("/api/extras/dashboard/", () => {
  it("keeps each user's layout and config, changed by PATCH and PUT, removed by DELETE", async () => {
    expect((await api.get("/api/extras/dashboard/", { token: alice })).body).toEqual({ layout: [], config: {} });
    const layout = [{ id: "w1", x: 0, y: 0, w: 4, h: 3 }];
    const patched = await api.patch("/api/extras/dashboard/", { layout }, { token: alice });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toEqual({ layout, config: {} });
    const config = { w1: { class: "extras.NoteWidget", title: "Hi" } };
    expect((await api.patch("/api/extras/dashboard/", { config }, { token: alice })).body).toEqual({ layout, config });
    // Another user's is their own.
    expect((await api.get("/api/extras/dashboard/", { token: bob })).body).toEqual({ layout: [], config: {} });
    expect((await api.put("/api/extras/dashboard/", { layout: [] }, { token: alice })).body).toEqual({
      config: ["This field is required."],
    });
    expect((await api.patch("/api/extras/dashboard/", { layout: {} }, { token: alice })).status).toBe(400);
    expect((await api.delete("/api/extras/dashboard/", undefined, { token: alice })).status).toBe(204);
    expect((await api.get("/api/extras/dashboard/", { token: alice })).body).toEqual({ layout: [], config: {} });
  });

  it("refuses anonymous requests, read-only tokens' writes and other methods", async () => {
    expect((await api.get("/api/extras/dashboard/", { token: null })).status).toBe(403);
    const readOnly = await api.token({ superuser: false, write_enabled: false });
    expect((await api.patch("/api/extras/dashboard/", { layout: [] }, { token: readOnly })).status).toBe(403);
    expect((await api.post("/api/extras/dashboard/", {})).status).toBe(405);
    const options = await api.request("OPTIONS", "/api/extras/dashboard/");
    expect(options.headers.get("Allow")).toBe("GET, PUT, PATCH, DELETE, HEAD, OPTIONS");
    expect((await api.get("/api/extras/")).body.dashboard).toMatch(/\/api\/extras\/dashboard\/$/);
  });
});

describe("/api/extras/scripts/", () => {
  it("lists none, finds none, and refuses to upload or run one, saying why", async () => {
    expect((await api.get("/api/extras/scripts/")).body).toEqual({ count: 0, next: null, previous: null, results: [] });
    expect((await api.get("/api/extras/scripts/1/")).status).toBe(404);
    for (const path of ["/api/extras/scripts/", "/api/extras/scripts/1/"]) {
      const run = await api.post(path, { data: {}, commit: true });
      expect(run.status).toBe(405);
      expect(run.body.detail).toMatch(/runs no custom scripts/);
    }
    expect((await api.get("/api/extras/scripts/", { token: null })).status).toBe(403);
    const schema = (await api.get("/api/schema/?format=json")).body;
    expect(Object.keys(schema.paths)).toEqual(
      expect.arrayContaining(["/api/extras/scripts/", "/api/extras/scripts/{id}/", "/api/extras/dashboard/"]),
    );
  });
});

describe("fields and filters that came with them", () => {
  it("webhooks show their secret, as NetBox 4.2 does, and filter by it", async () => {
    const hook = await api.post("/api/extras/webhooks/", { name: "Signed", payload_url: "http://127.0.0.1:1/", secret: "s3cret" });
    expect(hook.status, hook.text).toBe(201);
    expect(hook.body.secret).toBe("s3cret");
    expect(await ids("/api/extras/webhooks/?secret=s3cret")).toEqual([hook.body.id]);
    expect(await ids("/api/extras/webhooks/?secret__isw=s3")).toEqual([hook.body.id]);
    expect(await ids("/api/extras/webhooks/?secret__empty=true")).toEqual([]);
  });

  it("users and groups show and take the permissions granted to them", async () => {
    const group = await make(api, "/api/users/groups/", { name: "Readers" });
    const perm = await make(api, "/api/users/permissions/", {
      name: "View sites",
      object_types: ["dcim.site"],
      actions: ["view"],
      groups: [group],
    });
    const user = await api.get(`/api/users/groups/${group}/`);
    expect(user.body.permissions).toEqual([
      expect.objectContaining({ id: perm, name: "View sites", actions: ["view"], object_types: ["dcim.site"] }),
    ]);
    // Granted from the user's side: alice may now view sites.
    expect((await api.patch(`/api/users/users/${id.alice}/`, { permissions: [perm] })).status).toBe(200);
    expect((await api.get(`/api/users/users/${id.alice}/`)).body.permissions.map((p: any) => p.id)).toEqual([perm]);
    expect((await api.get("/api/dcim/sites/", { token: alice })).status).toBe(200);
    expect((await api.get(`/api/users/permissions/${perm}/`)).body.users.map((u: any) => u.id)).toEqual([id.alice]);
    expect((await api.patch(`/api/users/users/${id.alice}/`, { permissions: [] })).status).toBe(200);
    expect((await api.get("/api/dcim/sites/", { token: alice })).status).toBe(403);
  });

  it("tokens are found by their key, compared as keyed digests", async () => {
    const key = "c0ffee0123456789abcdefc0ffee0123456789ab";
    const made = await api.post("/api/users/tokens/", { user: id.bob, key, description: "known key" });
    expect(made.status, made.text).toBe(201);
    expect(await ids(`/api/users/tokens/?key=${key}`)).toEqual([made.body.id]);
    expect(await ids(`/api/users/tokens/?key__ie=${key.toUpperCase()}`)).toEqual([made.body.id]);
    expect(await ids(`/api/users/tokens/?key__n=${key}`)).not.toContain(made.body.id);
    expect(await ids("/api/users/tokens/?key=ffffffffffffffffffffffffffffffffffffffff")).toEqual([]);
    expect(await ids("/api/users/tokens/?key__empty=true")).toEqual([]);
    // A substring of a key cannot be compared with a digest: refused, never answered wrongly.
    expect((await api.get("/api/users/tokens/?key__ic=c0ffee")).status).toBe(400);
    // Another user's token stays out of a plain user's reach, key or not.
    expect(await ids(`/api/users/tokens/?key=${key}`, { token: alice })).toEqual([]);
  });

  it("object types filter with every lookup on event rules, custom fields and permissions", async () => {
    const hook = await make(api, "/api/extras/webhooks/", { name: "Rules", payload_url: "http://127.0.0.1:1/" });
    const rule = await make(api, "/api/extras/event-rules/", {
      name: "Sites",
      object_types: ["dcim.site"],
      event_types: ["object_created"],
      action_object_type: "extras.webhook",
      action_object_id: hook,
    });
    const field = await make(api, "/api/extras/custom-fields/", { name: "owner", type: "text", object_types: ["tenancy.tenant"] });
    expect(await ids("/api/extras/event-rules/?object_type__ie=DCIM.SITE")).toEqual([rule]);
    expect(await ids("/api/extras/event-rules/?object_type__n=dcim.site")).toEqual([]);
    expect(await ids("/api/extras/custom-fields/?object_type__iew=.tenant")).toEqual([field]);
    expect(await ids("/api/extras/custom-fields/?object_type__nisw=tenancy")).not.toContain(field);
    const siteType = (await api.get("/api/extras/object-types/?app_label=dcim&model=site")).body.results[0].id;
    expect(await ids(`/api/extras/event-rules/?object_type_id__n=${siteType}`)).toEqual([]);
    expect(await ids(`/api/users/permissions/?object_type_id__n=${siteType}&object_type__ic=site`)).toEqual([]);
    expect((await ids(`/api/users/permissions/?object_type_id=${siteType}`)).length).toBeGreaterThan(0);
  });

  it("journal entries and contact assignments exclude object types by id", async () => {
    const entry = await make(api, "/api/extras/journal-entries/", {
      assigned_object_type: "dcim.site",
      assigned_object_id: id.ber,
      comments: "hi",
    });
    const siteType = (await api.get("/api/extras/object-types/?app_label=dcim&model=site")).body.results[0].id;
    expect(await ids(`/api/extras/journal-entries/?assigned_object_type_id__n=${siteType}`)).not.toContain(entry);
    expect(await ids(`/api/extras/journal-entries/?assigned_object_type_id=${siteType}`)).toContain(entry);
    const contact = await make(api, "/api/tenancy/contacts/", { name: "Ann" });
    const assigned = await make(api, "/api/tenancy/contact-assignments/", { object_type: "dcim.site", object_id: id.ber, contact });
    expect(await ids(`/api/tenancy/contact-assignments/?object_type_id__n=${siteType}`)).not.toContain(assigned);
    expect(await ids(`/api/tenancy/contact-assignments/?object_type_id=${siteType}`)).toEqual([assigned]);
  });
});

describe("object type ids compared as numbers", () => {
  it("bookmarks filter by the object type id's order, and by none", async () => {
    const made = await make(api, "/api/extras/bookmarks/", { object_type: "tenancy.tenant", object_id: id.other });
    const tenantType = (await api.get("/api/extras/object-types/?app_label=tenancy&model=tenant")).body.results[0].id;
    expect(await ids(`/api/extras/bookmarks/?object_type_id__gte=${tenantType}&object_type_id__lte=${tenantType}`)).toContain(made);
    expect(await ids(`/api/extras/bookmarks/?object_type_id__gt=${tenantType}&object_type=tenancy.tenant`)).toEqual([]);
    expect(await ids("/api/extras/bookmarks/?object_type_id__empty=true")).toEqual([]);
  });
});

describe("subscriptions notify", () => {
  it("each subscriber once per object when it is updated or deleted, in the change's transaction", async () => {
    const watched = await make(api, "/api/tenancy/tenants/", { name: "Watched", slug: "watched" });
    const sub = await api.post("/api/extras/subscriptions/", { object_type: "tenancy.tenant", object_id: watched }, { token: bob });
    expect(sub.status, sub.text).toBe(201);
    const mine = async () =>
      (await api.get(`/api/extras/notifications/?object_id=${watched}`, { token: bob })).body.results.map((n: any) => [
        n.event_type.value,
        n.object_type,
        n.user.id,
      ]);
    expect(await mine()).toEqual([]);
    expect((await api.patch(`/api/tenancy/tenants/${watched}/`, { description: "one" })).status).toBe(200);
    expect((await api.patch(`/api/tenancy/tenants/${watched}/`, { description: "two" })).status).toBe(200);
    expect(await mine()).toEqual([["object_updated", "tenancy.tenant", id.bob]]);
    // A refused change notifies no one.
    expect((await api.patch(`/api/tenancy/tenants/${watched}/`, { slug: "bad slug" })).status).toBe(400);
    expect(await mine()).toHaveLength(1);
    expect((await api.delete(`/api/tenancy/tenants/${watched}/`)).status).toBe(204);
    expect(await mine()).toEqual([["object_deleted", "tenancy.tenant", id.bob]]);
    expect(await ids(`/api/extras/notifications/?object_id=${watched}`, { token: alice })).toEqual([]);
  });
});
