import type { ContractSpec } from "../support/contract.ts";
import type { Harness } from "../support/harness.ts";
import { make } from "./fixtures.ts";
import { pngDataUrl, serveFiles } from "../support/file-server.ts";

/** Two http data sources synced from a local server: their files and the sync jobs. */
const syncedSources = async (api: Harness) => {
  const server = await serveFiles({ "/ntp.json": '{"ntp": ["10.0.0.1"]}', "/motd.txt": "hello {{device.name}}" });
  try {
    const out: Record<string, number> = {};
    for (const [name, file] of [
      ["NTP", "ntp.json"],
      ["MOTD", "motd.txt"],
    ]) {
      out[name] = await make(api, "/api/core/data-sources/", { name, type: "http", source_url: `${server.url}/${file}` });
      const synced = await api.post(`/api/core/data-sources/${out[name]}/sync/`, {});
      if (synced.status !== 200 || synced.body.status.value !== "completed") throw new Error(`sync: ${synced.text}`);
    }
    return out;
  } finally {
    await server.close();
  }
};

/** Contract rows of core's data sources, data files and jobs, and of image attachments. */
export const specs: ContractSpec[] = [
  {
    objectType: "core.datasource",
    create: () =>
      [1, 2, 3, 4, 5].map((i) => ({
        name: `Source ${i}`,
        type: ["http", "git", "local", "amazon-s3", "http"][i - 1],
        // Nothing listens there: a sync (the fuzz test sends some) fails at once, never reaching out.
        source_url: `http://127.0.0.1:9/${i}.json`,
        enabled: i !== 5,
        description: `source ${i}`,
        parameters: i === 2 ? { branch: "main" } : null,
        ignore_rules: i === 3 ? "*.bak" : "",
      })),
    patch: { description: "changed", comments: "note", enabled: false },
    bulkPatch: { description: "bulk" },
    invalid: { body: { name: "Bad", type: "ftp", source_url: "ftp://x/" }, field: "type" },
  },
  { objectType: "core.datafile", readOnly: true, fixtures: syncedSources },
  { objectType: "core.job", readOnly: true, fixtures: syncedSources },
  {
    objectType: "extras.imageattachment",
    fixtures: async (api) => ({
      site: await make(api, "/api/dcim/sites/", { name: "Pictured", slug: "pictured" }),
      tenant: await make(api, "/api/tenancy/tenants/", { name: "Pictured", slug: "pictured" }),
    }),
    create: (fx) =>
      [1, 2, 3, 4, 5].map((i) => ({
        object_type: i % 2 ? "dcim.site" : "tenancy.tenant",
        object_id: i % 2 ? fx.site : fx.tenant,
        name: `Photo ${i}`,
        image: pngDataUrl(10 * i, 20 * i),
      })),
    patch: { name: "changed" },
    bulkPatch: { name: "bulk" },
    invalid: { body: { object_type: "dcim.site", object_id: 1, name: "bad", image: "not a file" }, field: "image" },
    // The image is sent as a file and read as its URL; the display follows the name.
    notEchoed: ["image", "display"],
  },
];
