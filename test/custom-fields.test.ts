import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "./support/harness.ts";
import { make } from "./contract/fixtures.ts";

let api: Harness;
const ids: Record<string, number> = {};
const field = (body: Record<string, unknown>) => make(api, "/api/extras/custom-fields/", body);
const CF = "/api/extras/custom-fields/";
const invalid = (name: string, message: string) => ({
  status: 400,
  body: { __all__: [`Invalid value for custom field '${name}': ${message}`] },
});

beforeAll(async () => {
  api = await createHarness();
  ids.colours = await make(api, "/api/extras/custom-field-choice-sets/", {
    name: "Colours",
    extra_choices: [
      ["red", "Red"],
      ["blue", "Blue"],
      ["green", "Green"],
    ],
  });
  ids.acme = await make(api, "/api/tenancy/tenants/", { name: "Acme", slug: "acme" });
  ids.globex = await make(api, "/api/tenancy/tenants/", { name: "Globex", slug: "globex" });
});
afterAll(() => api.close());

describe("custom field definitions", () => {
  it("are refused when their name, type options, object types or default do not fit", async () => {
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ name: "Bad Name", object_types: ["dcim.site"] }, { name: ["Only alphanumeric characters and underscores are allowed."] }],
      [{ name: "a__b", object_types: ["dcim.site"] }, { name: ["Double underscores are not permitted in custom field names."] }],
      [{ name: "x", object_types: ["dcim.nothing"] }, { object_types: ["Invalid content type: dcim.nothing"] }],
      [{ name: "x", object_types: ["site"] }, { object_types: ["Invalid value. Specify a content type as '<app_label>.<model_name>'."] }],
      // Choice sets, tags and custom fields carry no custom fields of their own.
      [{ name: "x", object_types: ["extras.tag"] }, { object_types: ["Invalid content type: extras.tag"] }],
      [{ name: "x", type: "select", object_types: ["dcim.site"] }, { choice_set: ["Selection fields must specify a set of choices."] }],
      [
        { name: "x", type: "text", object_types: ["dcim.site"], choice_set: ids.colours },
        { choice_set: ["Choices may be set only on selection fields."] },
      ],
      [{ name: "x", type: "object", object_types: ["dcim.site"] }, { related_object_type: ["Object fields must define an object type."] }],
      [
        { name: "x", type: "object", object_types: ["dcim.site"], related_object_type: "dcim.nothing" },
        { related_object_type: ["Invalid content type: dcim.nothing"] },
      ],
      [
        { name: "x", type: "text", object_types: ["dcim.site"], related_object_type: "dcim.site" },
        { type: ["Text fields may not define an object type."] },
      ],
      [
        { name: "x", type: "boolean", object_types: ["dcim.site"], unique: true },
        { unique: ["Uniqueness cannot be enforced for boolean fields"] },
      ],
      [
        { name: "x", type: "text", object_types: ["dcim.site"], validation_minimum: 1 },
        { validation_minimum: ["A minimum value may be set only for numeric fields"] },
      ],
      [
        { name: "x", type: "date", object_types: ["dcim.site"], validation_maximum: 1 },
        { validation_maximum: ["A maximum value may be set only for numeric fields"] },
      ],
      [
        { name: "x", type: "integer", object_types: ["dcim.site"], validation_regex: "^a" },
        { validation_regex: ["Regular expression validation is supported only for text and URL fields"] },
      ],
      [
        { name: "x", type: "text", object_types: ["dcim.site"], validation_regex: "([a-z" },
        { validation_regex: ["Invalid regular expression: ([a-z"] },
      ],
      [
        { name: "x", type: "integer", object_types: ["dcim.site"], default: "five" },
        { default: ['Invalid default value "five": Value must be an integer.'] },
      ],
      [
        { name: "x", type: "select", object_types: ["dcim.site"], choice_set: ids.colours, default: "pink" },
        { default: ['Invalid default value "pink": Invalid choice (pink) for choice set Colours.'] },
      ],
      [
        { name: "x", type: "integer", object_types: ["dcim.site"], validation_minimum: 10, default: 5 },
        { default: ['Invalid default value "5": Value must be at least 10'] },
      ],
      [{ name: "x", type: "teapot", object_types: ["dcim.site"] }, { type: ["teapot is not a valid choice."] }],
    ];
    for (const [body, errors] of cases) {
      const reply = await api.post(CF, body);
      expect(reply, JSON.stringify(body)).toMatchObject({ status: 400, body: errors });
    }
    expect((await api.get(CF)).body.count).toBe(0);
  });

  it("read back with every NetBox field, data_type, display, and the choice set in brief", async () => {
    const id = await field({
      name: "rack_units",
      type: "select",
      object_types: ["dcim.site"],
      choice_set: { name: "Colours" },
      default: "red",
    });
    const reply = await api.get(`${CF}${id}/`);
    expect(reply.body).toMatchObject({
      display: "Rack units",
      name: "rack_units",
      type: { value: "select", label: "Selection" },
      data_type: "string",
      object_types: ["dcim.site"],
      related_object_type: null,
      label: "",
      group_name: "",
      required: false,
      unique: false,
      search_weight: 1000,
      filter_logic: { value: "loose", label: "Loose" },
      ui_visible: { value: "always", label: "Always" },
      ui_editable: { value: "yes", label: "Yes" },
      is_cloneable: false,
      default: "red",
      related_object_filter: null,
      weight: 100,
      validation_minimum: null,
      validation_maximum: null,
      validation_regex: "",
      comments: "",
      choice_set: { id: ids.colours, name: "Colours", display: "Colours", description: "", choices_count: 3 },
    });
    expect(Object.keys((await api.get(`${CF}?brief=1`)).body.results[0]).sort()).toEqual(["description", "display", "id", "name", "url"]);
    expect((await api.get(`${CF}?object_type=dcim.site`)).body.count).toBe(1);
    expect((await api.get(`${CF}?object_type=dcim.device`)).body.count).toBe(0);
    expect((await api.get(`${CF}?type=select&choice_set_id=${ids.colours}`)).body.count).toBe(1);
    // A choice set in use is protected.
    expect((await api.delete(`/api/extras/custom-field-choice-sets/${ids.colours}/`)).status).toBe(409);
    await api.delete(`${CF}${id}/`);
  });
});

describe("custom field choice sets", () => {
  it("need choices given as [value, label] pairs, and order them when asked", async () => {
    const path = "/api/extras/custom-field-choice-sets/";
    expect(await api.post(path, { name: "Empty", extra_choices: [] })).toMatchObject({
      status: 400,
      body: { __all__: ["Must define base or extra choices."] },
    });
    expect(await api.post(path, { name: "Odd", extra_choices: [["a", "A"], ["b"]] })).toMatchObject({
      status: 400,
      body: { extra_choices: { 1: ["Ensure this field has at least 2 elements."] } },
    });
    expect(await api.post(path, { name: "Flat", extra_choices: "a,b" })).toMatchObject({
      status: 400,
      body: { extra_choices: ['Expected a list of items but got type "str".'] },
    });
    const sorted = await api.post(path, {
      name: "Sorted",
      extra_choices: [
        ["b", "Bee"],
        ["a", "Ay"],
      ],
      order_alphabetically: true,
    });
    expect(sorted.body).toMatchObject({
      extra_choices: [
        ["a", "Ay"],
        ["b", "Bee"],
      ],
      choices_count: 2,
      base_choices: null,
    });
    const based = await api.post(path, { name: "Countries", base_choices: "ISO_3166", extra_choices: [] });
    expect(based.body.base_choices).toEqual({ value: "ISO_3166", label: "ISO 3166 (Country codes)" });
    expect((await api.get(`${path}?choice=a`)).body.results.map((s: any) => s.name)).toEqual(["Sorted"]);
    const choices = await api.get(`${path}${ids.colours}/choices/?q=RE&limit=1`);
    expect(choices.body).toMatchObject({ count: 2, previous: null, results: [{ id: "red", display: "Red" }] });
    expect(choices.body.next).toContain("offset=1");
    expect((await api.get(`${path}999/choices/`)).status).toBe(404);
    await api.delete(path, [{ id: sorted.body.id }, { id: based.body.id }]);
  });
});

describe("custom field values", () => {
  const defs: Record<string, number> = {};
  let site = 0;
  const write = (data: Record<string, unknown>) => api.patch(`/api/dcim/sites/${site}/`, { custom_fields: data });

  beforeAll(async () => {
    const on = { object_types: ["dcim.site"] };
    defs.text = await field({ name: "text", type: "text", ...on, validation_regex: "^[a-z]+[0-9]*$" });
    defs.longtext = await field({ name: "longtext", type: "longtext", ...on });
    defs.integer = await field({ name: "integer", type: "integer", ...on, validation_minimum: 1, validation_maximum: 48 });
    defs.decimal = await field({ name: "decimal", type: "decimal", ...on, validation_minimum: 0, validation_maximum: 100 });
    defs.boolean = await field({ name: "boolean", type: "boolean", ...on });
    defs.date = await field({ name: "date", type: "date", ...on });
    defs.datetime = await field({ name: "datetime", type: "datetime", ...on });
    defs.url = await field({ name: "url", type: "url", ...on });
    defs.json = await field({ name: "json", type: "json", ...on });
    defs.select = await field({ name: "select", type: "select", ...on, choice_set: ids.colours });
    defs.multiselect = await field({ name: "multiselect", type: "multiselect", ...on, choice_set: ids.colours });
    defs.object = await field({ name: "object", type: "object", ...on, related_object_type: "tenancy.tenant" });
    defs.multiobject = await field({ name: "multiobject", type: "multiobject", ...on, related_object_type: "tenancy.tenant" });
    site = await make(api, "/api/dcim/sites/", { name: "Values", slug: "values" });
  });

  it("list every defined field on read, null when unset", async () => {
    const reply = await api.get(`/api/dcim/sites/${site}/`);
    expect(reply.body.custom_fields).toEqual(
      Object.fromEntries(
        Object.keys(defs)
          .sort()
          .map((name) => [name, null]),
      ),
    );
  });

  it("accept good values of every type and store them as NetBox shows them", async () => {
    const reply = await write({
      text: "abc1",
      longtext: "any\ntext",
      integer: 12,
      decimal: "12.5",
      boolean: true,
      date: "2024-02-29",
      datetime: "2024-03-01 10:30",
      url: "https://example.com/x",
      json: { a: [1, 2] },
      select: "red",
      multiselect: ["red", "green"],
      object: ids.acme,
      multiobject: [ids.acme, { slug: "globex" }],
    });
    expect(reply.status, reply.text).toBe(200);
    const acme = {
      id: ids.acme,
      url: expect.stringContaining(`/api/tenancy/tenants/${ids.acme}/`),
      display: "Acme",
      name: "Acme",
      slug: "acme",
      description: "",
    };
    expect(reply.body.custom_fields).toEqual({
      boolean: true,
      date: "2024-02-29",
      datetime: "2024-03-01T10:30:00",
      decimal: 12.5,
      integer: 12,
      json: { a: [1, 2] },
      longtext: "any\ntext",
      multiobject: [acme, expect.objectContaining({ id: ids.globex, name: "Globex" })],
      multiselect: ["red", "green"],
      object: acme,
      select: "red",
      text: "abc1",
      url: "https://example.com/x",
    });
    // Stored as ids: the change record keeps them as written.
    const change = await api.db.kysely
      .selectFrom("core_objectchange")
      .select("postchange_data")
      .where("request_id", "=", reply.headers.get("X-Request-ID"))
      .executeTakeFirst();
    expect(JSON.parse(String(change!.postchange_data)).custom_fields).toMatchObject({
      object: ids.acme,
      multiobject: [ids.acme, ids.globex],
    });
    expect((await write({ datetime: "2024-03-01T10:30:00.5+00:00" })).body.custom_fields.datetime).toBe("2024-03-01T10:30:00.500000Z");
  });

  it("refuse bad values of every type with NetBox's messages, changing nothing", async () => {
    const before = (await api.get(`/api/dcim/sites/${site}/`)).body.custom_fields;
    const cases: [Record<string, unknown>, unknown][] = [
      [{ text: 5 }, invalid("text", "Value must be a string.")],
      [{ text: "ABC" }, invalid("text", "Value must match regex '^[a-z]+[0-9]*$'")],
      [{ longtext: ["x"] }, invalid("longtext", "Value must be a string.")],
      [{ url: 1 }, invalid("url", "Value must be a string.")],
      [{ integer: "12" }, invalid("integer", "Value must be an integer.")],
      [{ integer: 1.5 }, invalid("integer", "Value must be an integer.")],
      [{ integer: 0 }, invalid("integer", "Value must be at least 1")],
      [{ integer: 49 }, invalid("integer", "Value must not exceed 48")],
      [{ decimal: "lots" }, invalid("decimal", "Value must be a decimal.")],
      [{ decimal: 100.5 }, invalid("decimal", "Value must not exceed 100")],
      [{ boolean: "yes" }, invalid("boolean", "Value must be true or false.")],
      [{ date: "2023-02-29" }, invalid("date", "Date values must be in ISO 8601 format (YYYY-MM-DD).")],
      [{ date: 20240101 }, invalid("date", "Date values must be in ISO 8601 format (YYYY-MM-DD).")],
      [{ datetime: "tomorrow" }, invalid("datetime", "Date and time values must be in ISO 8601 format (YYYY-MM-DD HH:MM:SS).")],
      [{ select: "pink" }, invalid("select", "Invalid choice (pink) for choice set Colours.")],
      [{ multiselect: ["red", "pink"] }, invalid("multiselect", "Invalid choice(s) (['red', 'pink']) for choice set Colours.")],
      [{ object: 999 }, { status: 400, body: { custom_fields: ["Unknown related object(s): 999"] } }],
      [{ object: { slug: "nobody" } }, { status: 400, body: { custom_fields: ["Unknown related object(s): {'slug': 'nobody'}"] } }],
      [{ object: [ids.acme] }, invalid("object", "Value must be an object ID, not list")],
      [{ multiobject: [ids.acme, 999] }, { status: 400, body: { custom_fields: [`Unknown related object(s): [${ids.acme}, 999]`] } }],
      [{ multiobject: ids.acme }, invalid("multiobject", "Value must be a list of object IDs, not int")],
      [
        { nope: 1, nada: 2 },
        {
          status: 400,
          body: { __all__: ["Unknown field name 'nope' in custom field data.", "Unknown field name 'nada' in custom field data."] },
        },
      ],
    ];
    for (const [data, expected] of cases) expect(await write(data), JSON.stringify(data)).toMatchObject(expected as object);
    expect(await api.post("/api/dcim/sites/", { name: "N", slug: "n", custom_fields: "x" })).toMatchObject({
      status: 400,
      body: {
        custom_fields: ["Invalid data format. Custom field data must be passed as a dictionary mapping field names to their values."],
      },
    });
    expect((await api.get(`/api/dcim/sites/${site}/`)).body.custom_fields).toEqual(before);
  });

  it('merge given values over stored ones; null and "" clear a value', async () => {
    const reply = await write({ text: null, select: "" });
    expect(reply.body.custom_fields).toMatchObject({ text: null, select: "", integer: 12, boolean: true });
    // A field defined for another type is unknown here.
    const other = await field({ name: "device_only", type: "text", object_types: ["dcim.device"] });
    expect(await write({ device_only: "x" })).toMatchObject({
      status: 400,
      body: { __all__: ["Unknown field name 'device_only' in custom field data."] },
    });
    await api.delete(`${CF}${other}/`);
  });
});

describe("required, unique and default", () => {
  it("fill defaults on create and require what has none, on create and ever after", async () => {
    await field({ name: "tier", type: "integer", object_types: ["tenancy.tenant"], default: 3, required: true });
    const owner = await field({ name: "owner", type: "text", object_types: ["tenancy.tenant"], required: true });
    const missing = await api.post("/api/tenancy/tenants/", { name: "T1", slug: "t1" });
    expect(missing).toMatchObject({ status: 400, body: { __all__: ["Missing required custom field 'owner'."] } });
    const made = await api.post("/api/tenancy/tenants/", { name: "T1", slug: "t1", custom_fields: { owner: "ops" } });
    expect(made.body.custom_fields).toMatchObject({ tier: 3, owner: "ops" });
    const cleared = await api.patch(`/api/tenancy/tenants/${made.body.id}/`, { custom_fields: { owner: null } });
    expect(cleared).toMatchObject({
      status: 400,
      body: { __all__: ["Invalid value for custom field 'owner': Required field cannot be empty."] },
    });
    // Writes that leave custom fields alone are not held up.
    expect((await api.patch(`/api/tenancy/tenants/${made.body.id}/`, { description: "x" })).status).toBe(200);
    const bulk = await api.post("/api/tenancy/tenants/", [
      { name: "T2", slug: "t2", custom_fields: { owner: "a" } },
      { name: "T3", slug: "t3" },
    ]);
    expect(bulk).toMatchObject({ status: 400, body: [{}, { __all__: ["Missing required custom field 'owner'."] }] });
    await api.delete(`${CF}${owner}/`);
  });

  it("enforce unique values against stored objects and within one request", async () => {
    await field({ name: "asset", type: "text", object_types: ["dcim.site"], unique: true });
    const first = await api.post("/api/dcim/sites/", { name: "U1", slug: "u1", custom_fields: { asset: "A-1" } });
    expect(first.status, first.text).toBe(201);
    const twin = await api.post("/api/dcim/sites/", { name: "U2", slug: "u2", custom_fields: { asset: "A-1" } });
    expect(twin).toMatchObject({ status: 400, body: { __all__: ["Custom field 'asset' must have a unique value."] } });
    const both = await api.post("/api/dcim/sites/", [
      { name: "U3", slug: "u3", custom_fields: { asset: "B" } },
      { name: "U4", slug: "u4", custom_fields: { asset: "B" } },
    ]);
    expect(both).toMatchObject({ status: 400, body: [{}, { __all__: ["Custom field 'asset' must have a unique value."] }] });
    // Keeping its own value, or several objects without one, is fine.
    expect((await api.patch(`/api/dcim/sites/${first.body.id}/`, { custom_fields: { asset: "A-1" } })).status).toBe(200);
    expect(
      (
        await api.post("/api/dcim/sites/", [
          { name: "U5", slug: "u5" },
          { name: "U6", slug: "u6" },
        ])
      ).status,
    ).toBe(201);
  });
});

describe("changing definitions", () => {
  it("renames, removes and fills the objects' data as NetBox does", async () => {
    const onSites = { object_types: ["dcim.site"] };
    const a = await make(api, "/api/dcim/sites/", { name: "D1", slug: "d1" });
    const id = await field({ name: "old_name", type: "text", ...onSites });
    await api.patch(`/api/dcim/sites/${a}/`, { custom_fields: { old_name: "kept" } });
    await api.patch(`${CF}${id}/`, { name: "new_name" });
    const cf = (await api.get(`/api/dcim/sites/${a}/`)).body.custom_fields;
    expect([cf.new_name, "old_name" in cf]).toEqual(["kept", false]);

    // A new field with a default fills existing objects; one added to another type fills those.
    const later = await field({ name: "later", type: "integer", object_types: ["dcim.site"], default: 7 });
    expect((await api.get(`/api/dcim/sites/${a}/`)).body.custom_fields.later).toBe(7);
    const tenant = await make(api, "/api/tenancy/tenants/", { name: "Late", slug: "late", custom_fields: { tier: 1 } });
    await api.patch(`${CF}${later}/`, { object_types: ["dcim.site", "tenancy.tenant"] });
    expect((await api.get(`/api/tenancy/tenants/${tenant}/`)).body.custom_fields.later).toBe(7);

    // Taken off a type, or deleted, a field's values leave the objects for good.
    await api.patch(`${CF}${later}/`, { object_types: ["tenancy.tenant"] });
    const site = await api.db.kysely.selectFrom("dcim_site").select("custom_field_data").where("id", "=", a).executeTakeFirst();
    expect(JSON.parse(String(site!.custom_field_data))).not.toHaveProperty("later");
    await api.delete(`${CF}${id}/`);
    expect((await api.get(`/api/dcim/sites/${a}/`)).body.custom_fields).not.toHaveProperty("new_name");
    await field({ name: "new_name", type: "text", ...onSites });
    expect((await api.get(`/api/dcim/sites/${a}/`)).body.custom_fields.new_name).toBeNull();
  });
});

describe("cf_ filters", () => {
  const names = async (query: string) => {
    const reply = await api.get(`/api/dcim/devices/?${query}&limit=0`);
    expect(reply.status, `${query}: ${reply.text}`).toBe(200);
    return reply.body.results.map((d: any) => d.name).sort();
  };
  const refused = async (query: string) => (await api.get(`/api/dcim/devices/?${query}`)).body;

  beforeAll(async () => {
    const on = { object_types: ["dcim.device"] };
    await field({ name: "f_text", type: "text", ...on });
    await field({ name: "f_exact", type: "text", ...on, filter_logic: "exact" });
    await field({ name: "f_int", type: "integer", ...on });
    await field({ name: "f_dec", type: "decimal", ...on });
    await field({ name: "f_bool", type: "boolean", ...on });
    await field({ name: "f_date", type: "date", ...on });
    await field({ name: "f_time", type: "datetime", ...on });
    await field({ name: "f_url", type: "url", ...on });
    await field({ name: "f_json", type: "json", ...on });
    await field({ name: "f_sel", type: "select", ...on, choice_set: ids.colours });
    await field({ name: "f_multi", type: "multiselect", ...on, choice_set: ids.colours });
    await field({ name: "f_obj", type: "object", ...on, related_object_type: "tenancy.tenant" });
    await field({ name: "f_objs", type: "multiobject", ...on, related_object_type: "tenancy.tenant" });
    await field({ name: "f_off", type: "text", ...on, filter_logic: "disabled" });
    const manufacturer = await make(api, "/api/dcim/manufacturers/", { name: "M", slug: "m" });
    const device_type = await make(api, "/api/dcim/device-types/", { manufacturer, model: "X", slug: "x" });
    const role = await make(api, "/api/dcim/device-roles/", { name: "R", slug: "r" });
    const site = await make(api, "/api/dcim/sites/", { name: "F", slug: "f" });
    const devices = [
      {
        name: "d1",
        custom_fields: {
          f_text: "Core Router",
          f_exact: "Core",
          f_int: 5,
          f_dec: 1.5,
          f_bool: true,
          f_date: "2024-01-10",
          f_time: "2024-01-10 08:00",
          f_url: "https://a.example",
          f_sel: "red",
          f_multi: ["red", "blue"],
          f_obj: ids.acme,
          f_objs: [ids.acme, ids.globex],
        },
      },
      {
        name: "d2",
        custom_fields: {
          f_text: "edge switch",
          f_exact: "core",
          f_int: 10,
          f_dec: 2.25,
          f_bool: false,
          f_date: "2024-02-01",
          f_time: "2024-02-01T12:00:00Z",
          f_sel: "blue",
          f_multi: ["green"],
          f_obj: ids.globex,
          f_objs: [ids.globex],
        },
      },
      { name: "d3", custom_fields: { f_text: "", f_multi: [] } },
    ];
    for (const d of devices) await make(api, "/api/dcim/devices/", { ...d, device_type, role, site });
  });

  it("match text loosely or exactly, with every text lookup", async () => {
    expect(await names("cf_f_text=core")).toEqual(["d1"]);
    expect(await names("cf_f_exact=core")).toEqual(["d2"]);
    expect(await names("cf_f_exact=core&cf_f_exact=Core")).toEqual(["d1", "d2"]);
    expect(await names("cf_f_text__n=core")).toEqual(["d2", "d3"]);
    expect(await names("cf_f_text__ic=SWITCH")).toEqual(["d2"]);
    expect(await names("cf_f_text__nic=switch")).toEqual(["d1", "d3"]);
    expect(await names("cf_f_text__isw=core")).toEqual(["d1"]);
    expect(await names("cf_f_text__nisw=core")).toEqual(["d2", "d3"]);
    expect(await names("cf_f_text__iew=ROUTER")).toEqual(["d1"]);
    expect(await names("cf_f_text__niew=router")).toEqual(["d2", "d3"]);
    expect(await names("cf_f_text__ie=core router")).toEqual(["d1"]);
    expect(await names("cf_f_text__nie=core router")).toEqual(["d2", "d3"]);
    expect(await names("cf_f_text__empty=true")).toEqual(["d3"]);
    expect(await names("cf_f_text__empty=false")).toEqual(["d1", "d2"]);
    expect(await names("cf_f_url__ic=example")).toEqual(["d1"]);
    expect(await names("cf_f_url__empty=true")).toEqual(["d2", "d3"]);
  });

  it("compare numbers, dates and times", async () => {
    expect(await names("cf_f_int=5")).toEqual(["d1"]);
    expect(await names("cf_f_int__n=5")).toEqual(["d2", "d3"]);
    expect(await names("cf_f_int__gt=5")).toEqual(["d2"]);
    expect(await names("cf_f_int__gte=5")).toEqual(["d1", "d2"]);
    expect(await names("cf_f_int__lt=10")).toEqual(["d1"]);
    expect(await names("cf_f_int__lte=10")).toEqual(["d1", "d2"]);
    expect(await names("cf_f_int__empty=true")).toEqual(["d3"]);
    expect(await names("cf_f_dec=2.25")).toEqual(["d2"]);
    expect(await names("cf_f_dec__lt=2")).toEqual(["d1"]);
    expect(await names("cf_f_date=2024-01-10")).toEqual(["d1"]);
    expect(await names("cf_f_date__gte=2024-01-10")).toEqual(["d1", "d2"]);
    expect(await names("cf_f_date__gt=2024-01-10")).toEqual(["d2"]);
    expect(await names("cf_f_time=2024-01-10 08:00")).toEqual(["d1"]);
    expect(await names("cf_f_time__gt=2024-01-15")).toEqual(["d2"]);
    expect(await names("cf_f_time__lte=2024-01-10T08:00:00")).toEqual(["d1"]);
  });

  it("match booleans, choices, and objects by id", async () => {
    expect(await names("cf_f_bool=true")).toEqual(["d1"]);
    expect(await names("cf_f_bool=false")).toEqual(["d2"]);
    expect(await names("cf_f_sel=red&cf_f_sel=blue")).toEqual(["d1", "d2"]);
    expect(await names("cf_f_sel__n=red")).toEqual(["d2", "d3"]);
    expect(await names("cf_f_sel__ic=RE")).toEqual(["d1"]);
    expect(await names("cf_f_multi=blue")).toEqual(["d1"]);
    expect(await names("cf_f_multi=blue&cf_f_multi=green")).toEqual(["d1", "d2"]);
    expect(await names("cf_f_multi__n=red")).toEqual(["d2", "d3"]);
    expect(await names("cf_f_multi__empty=true")).toEqual(["d3"]);
    expect(await names(`cf_f_obj=${ids.acme}`)).toEqual(["d1"]);
    expect(await names(`cf_f_obj__n=${ids.acme}`)).toEqual(["d2", "d3"]);
    expect(await names(`cf_f_objs=${ids.globex}`)).toEqual(["d1", "d2"]);
    expect(await names(`cf_f_objs=${ids.acme}`)).toEqual(["d1"]);
  });

  it("refuse unknown fields, lookups and values with 400 instead of listing everything", async () => {
    expect(await refused("cf_nothing=1")).toEqual({ cf_nothing: ["Custom field 'nothing' does not exist for this object type."] });
    expect(await refused("cf_text=abc")).toEqual({ cf_text: ["Custom field 'text' does not exist for this object type."] });
    expect(await refused("cf_BAD-name=1")).toEqual({ "cf_BAD-name": ["Custom field 'BAD-name' does not exist for this object type."] });
    expect(await refused("cf_f_int=abc")).toEqual({ cf_f_int: ["Enter a whole number."] });
    expect(await refused("cf_f_dec__gt=x")).toEqual({ cf_f_dec__gt: ["Enter a number."] });
    expect(await refused("cf_f_date=2024-13-01")).toEqual({ cf_f_date: ["Enter a valid date."] });
    expect(await refused("cf_f_time__lt=soon")).toEqual({ cf_f_time__lt: ["Enter a valid date/time."] });
    expect(await refused("cf_f_bool=maybe")).toEqual({ cf_f_bool: ["Select a valid choice. maybe is not one of the available choices."] });
    expect(await refused("cf_f_int__ic=1")).toEqual({ cf_f_int__ic: ["Lookup 'ic' is not supported for integer custom fields."] });
    expect(await refused("cf_f_text__gt=a")).toEqual({ cf_f_text__gt: ["Lookup 'gt' is not supported for text custom fields."] });
    expect(await refused("cf_f_json=1")).toEqual({ cf_f_json: ["Custom fields of type json cannot be filtered."] });
    expect(await refused("cf_f_off=a")).toEqual({ cf_f_off: ["Filtering is disabled for custom field 'f_off'."] });
  });
});

describe("cost", () => {
  it("a write with custom fields stays two round trips, a filtered list one, whatever the size", async () => {
    await field({ name: "cost_ref", type: "object", object_types: ["dcim.region"], related_object_type: "tenancy.tenant" });
    await field({ name: "cost_key", type: "text", object_types: ["dcim.region"], unique: true });
    // A definition's change moves the auth version: the next request reads the token again.
    await api.get("/api/dcim/regions/?limit=1");
    const one = await api.cost(() =>
      api.post("/api/dcim/regions/", { name: "R0", slug: "r0", custom_fields: { cost_ref: ids.acme, cost_key: "k0" } }),
    );
    const many = await api.cost(() =>
      api.post(
        "/api/dcim/regions/",
        [1, 2, 3, 4, 5, 6, 7, 8].map((i) => ({
          name: `R${i}`,
          slug: `r${i}`,
          custom_fields: { cost_ref: i % 2 ? ids.acme : ids.globex, cost_key: `k${i}` },
        })),
      ),
    );
    expect(one.roundTrips).toBe(2);
    expect(many.roundTrips).toBe(2);
    const patch = await api.cost(() =>
      api.patch(
        "/api/dcim/regions/",
        [1, 2, 3].map((i) => ({ id: i, custom_fields: { cost_key: `p${i}` } })),
      ),
    );
    expect(patch.roundTrips).toBe(2);
    const small = await api.cost(() => api.get(`/api/dcim/regions/?cf_cost_ref=${ids.acme}&cf_cost_key__ic=k&limit=1`));
    const large = await api.cost(() => api.get(`/api/dcim/regions/?cf_cost_ref=${ids.acme}&cf_cost_key__ic=k&limit=50`));
    expect(small).toEqual({ statements: 5, roundTrips: 1 });
    expect(large).toEqual(small);
  });
});

describe("the object custom fields a read resolves", () => {
  it("follow definitions added, retyped and removed while the token's data is cached", async () => {
    const tenant = ids.acme;
    const location = await make(api, "/api/dcim/sites/", { name: "Catalog site", slug: "catalog-site" });
    const read = async () => (await api.get(`/api/dcim/sites/${location}/`)).body.custom_fields;
    // The token is cached and the site read resolves no object type yet.
    expect(await read()).not.toHaveProperty("catalog_ref");
    const def = await field({ name: "catalog_ref", type: "object", object_types: ["dcim.site"], related_object_type: "tenancy.tenant" });
    expect((await api.patch(`/api/dcim/sites/${location}/`, { custom_fields: { catalog_ref: tenant } })).status).toBe(200);
    // The same statement shape, read again with the cached token: the object is resolved.
    expect((await read()).catalog_ref).toMatchObject({ id: tenant, name: "Acme", slug: "acme" });
    const list = (await api.get(`/api/dcim/sites/?id=${location}`)).body.results[0].custom_fields;
    expect(list.catalog_ref).toMatchObject({ id: tenant, name: "Acme" });
    // Pointed at another type (the stored id now names a site): resolved as that type.
    expect((await api.patch(`${CF}${def}/`, { related_object_type: "dcim.site" })).status).toBe(200);
    const site = (await read()).catalog_ref;
    expect(site === null || site.url.includes("/api/dcim/sites/")).toBe(true);
    expect((await api.delete(`${CF}${def}/`)).status).toBe(204);
    expect(await read()).not.toHaveProperty("catalog_ref");
  });

  it("appear on a type that had none, and leave it, while the token's data and the type's statements are cached", async () => {
    const platform = await make(api, "/api/dcim/platforms/", { name: "Catalog OS", slug: "catalog-os" });
    const read = async () => [
      (await api.get(`/api/dcim/platforms/${platform}/`)).body.custom_fields,
      (await api.get(`/api/dcim/platforms/?id=${platform}`)).body.results[0].custom_fields,
    ];
    // Read twice: the statements of a type without custom fields are compiled and cached.
    expect(await read()).toEqual([{}, {}]);
    expect(await read()).toEqual([{}, {}]);
    const def = await field({ name: "catalog_note", type: "text", object_types: ["dcim.platform"] });
    expect(await read()).toEqual([{ catalog_note: null }, { catalog_note: null }]);
    expect((await api.patch(`/api/dcim/platforms/${platform}/`, { custom_fields: { catalog_note: "kept" } })).body.custom_fields).toEqual({
      catalog_note: "kept",
    });
    expect(await read()).toEqual([{ catalog_note: "kept" }, { catalog_note: "kept" }]);
    // Moved to another type, then removed: the platform's reads show none again.
    expect((await api.patch(`${CF}${def}/`, { object_types: ["dcim.manufacturer"] })).status).toBe(200);
    expect(await read()).toEqual([{}, {}]);
    // As NetBox, taking a type from a field clears its objects' values.
    expect((await api.patch(`${CF}${def}/`, { object_types: ["dcim.platform"] })).status).toBe(200);
    expect(await read()).toEqual([{ catalog_note: null }, { catalog_note: null }]);
    expect((await api.delete(`${CF}${def}/`)).status).toBe(204);
    expect(await read()).toEqual([{}, {}]);
  });
});
