/**
 * Config templates (mustache here, Jinja2 in NetBox: see README) and `render-config/` of devices
 * and virtual machines: the template their own, their role's or their platform's.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "./support/harness.ts";
import { make } from "./contract/fixtures.ts";

let api: Harness;
const id: Record<string, number> = {};

beforeAll(async () => {
  api = await createHarness();
  id.site = await make(api, "/api/dcim/sites/", { name: "s1", slug: "s1" });
  const manufacturer = await make(api, "/api/dcim/manufacturers/", { name: "m1", slug: "m1" });
  id.type = await make(api, "/api/dcim/device-types/", { manufacturer, model: "t1", slug: "t1" });
  id.template = await make(api, "/api/extras/config-templates/", {
    name: "base",
    template_code: "hostname {{device.name}}\n{{#ntp}}ntp server {{.}}\n{{/ntp}}",
  });
  id.role = await make(api, "/api/dcim/device-roles/", { name: "leaf", slug: "leaf", config_template: id.template });
  id.device = await make(api, "/api/dcim/devices/", { name: "sw1", site: id.site, device_type: id.type, role: id.role });
  await make(api, "/api/extras/config-contexts/", { name: "ntp", data: { ntp: ["10.0.0.1", "10.0.0.2"] } });
});
afterAll(() => api.close());

describe("config templates", () => {
  it("are served with NetBox's fields and render over the body's context", async () => {
    const template = (await api.get(`/api/extras/config-templates/${id.template}/`)).body;
    expect(template).toMatchObject({
      name: "base",
      environment_params: {},
      data_source: null,
      data_path: "",
      data_file: null,
      data_synced: null,
    });
    const rendered = await api.post(`/api/extras/config-templates/${id.template}/render/`, { device: { name: "x" }, ntp: ["a"] });
    expect(rendered.status, rendered.text).toBe(200);
    expect(rendered.body).toMatchObject({ configtemplate: { id: id.template, name: "base" }, content: "hostname x\nntp server a\n" });
    const bad = await api.post("/api/extras/config-templates/", { name: "broken", template_code: "{{#open}}" });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body)).toEqual(["template_code"]);
  });

  it("render a device's configuration from its role's template, its config context and the body", async () => {
    expect((await api.get(`/api/dcim/devices/${id.device}/`)).body.config_template).toBeNull();
    const rendered = await api.post(`/api/dcim/devices/${id.device}/render-config/`, {});
    expect(rendered.status, rendered.text).toBe(200);
    expect(rendered.body.content).toBe("hostname sw1\nntp server 10.0.0.1\nntp server 10.0.0.2\n");
    const text = await api.post(`/api/dcim/devices/${id.device}/render-config/?format=txt`, { ntp: [] });
    expect(text.text).toBe("hostname sw1\n");
    expect((await api.get(`/api/dcim/devices/${id.device}/render-config/`)).status).toBe(405);
    // Its own template comes first; a template in use cannot be deleted.
    const own = await make(api, "/api/extras/config-templates/", { name: "own", template_code: "own {{device.name}}" });
    await api.patch(`/api/dcim/devices/${id.device}/`, { config_template: own });
    expect((await api.post(`/api/dcim/devices/${id.device}/render-config/`, {})).body.content).toBe("own sw1");
    expect((await api.delete(`/api/extras/config-templates/${own}/`)).status).toBe(409);
    expect((await api.get(`/api/dcim/devices/?config_template_id=${own}`)).body.count).toBe(1);
  });

  it("answer 400 for an object with no template anywhere", async () => {
    const role = await make(api, "/api/dcim/device-roles/", { name: "spine", slug: "spine" });
    const device = await make(api, "/api/dcim/devices/", { name: "sw2", site: id.site, device_type: id.type, role });
    const refused = await api.post(`/api/dcim/devices/${device}/render-config/`, {});
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ detail: "No config template found for sw2." });
  });
});
