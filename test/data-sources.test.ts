import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "./support/harness.ts";
import { serveFiles, type Served } from "./support/file-server.ts";

/** Data sources synced from a local HTTP server (never the internet), their files and jobs, and objects synced from them. */
describe("data sources", () => {
  let api: Harness;
  let server: Awaited<ReturnType<typeof serveFiles>>;
  const files: Record<string, Served> = {};
  const source = async (name: string, path: string, extra: Record<string, unknown> = {}) => {
    const made = await api.post("/api/core/data-sources/", { name, type: "http", source_url: `${server.url}${path}`, ...extra });
    expect(made.status, made.text).toBe(201);
    return made.body;
  };
  const sync = (id: number, token?: string) => api.post(`/api/core/data-sources/${id}/sync/`, {}, token ? { token } : {});

  beforeAll(async () => {
    api = await createHarness({ DATA_SOURCE_MAX_SIZE: "1000", DATA_SOURCE_TIMEOUT: "2" });
    server = await serveFiles(files);
  });
  afterAll(async () => {
    api.close();
    await server.close();
  });

  it("syncs an http source: one data file with its size and SHA256, the status, last_synced and a job", async () => {
    files["/ntp.json"] = '{"ntp": ["10.0.0.1"]}';
    const s = await source("NTP", "/ntp.json");
    expect(s.status).toEqual({ value: "new", label: "New" });
    expect(s.type).toEqual({ value: "http", label: "HTTP(S)" });
    const synced = await sync(s.id);
    expect(synced.status, synced.text).toBe(200);
    expect(synced.body.status.value).toBe("completed");
    expect(synced.body.last_synced).toMatch(/^\d{4}-/);
    expect(synced.body.file_count).toBe(1);

    const list = await api.get(`/api/core/data-files/?source_id=${s.id}`);
    expect(list.body.count).toBe(1);
    const file = list.body.results[0];
    expect(file).toMatchObject({
      path: "ntp.json",
      size: 21,
      hash: createHash("sha256")
        .update(files["/ntp.json"] as string)
        .digest("hex"),
    });
    expect(file.source).toMatchObject({ id: s.id, name: "NTP" });
    expect(file).not.toHaveProperty("data");
    expect((await api.get(`/api/core/data-files/?source=NTP`)).body.count).toBe(1);
    expect((await api.get(`/api/core/data-files/?brief=1`)).body.results[0]).toEqual({
      id: file.id,
      url: file.url,
      display: "ntp.json",
      path: "ntp.json",
    });

    const jobs = await api.get(`/api/core/jobs/?object_id=${s.id}`);
    expect(jobs.body.count).toBe(1);
    const job = jobs.body.results[0];
    expect(job).toMatchObject({ object_type: "core.datasource", object_id: s.id, name: "Synchronization", error: "" });
    expect(job.status).toEqual({ value: "completed", label: "Completed" });
    expect(job.user.username).toBe("admin");
    expect(job.started <= job.completed).toBe(true);
    expect(job.data.files[0]).toMatchObject({ path: "ntp.json", size: 21 });
    expect(job.display).toBe(job.job_id);
    const typeId = (await api.get("/api/extras/object-types/?app_label=core&model=datasource")).body.results[0].id;
    expect((await api.get(`/api/core/jobs/?object_type=${typeId}&status=completed`)).body.count).toBeGreaterThanOrEqual(1);
    expect((await api.get(`/api/core/jobs/?status=errored&object_id=${s.id}`)).body.count).toBe(0);
    expect((await api.get(`/api/core/jobs/?object_type__n=${typeId}`)).body.count).toBe(0);
    // Files and jobs are the service's to write.
    expect((await api.post("/api/core/jobs/", {})).status).toBe(405);
    expect((await api.delete(`/api/core/data-files/${file.id}/`)).status).toBe(405);
  });

  it("replaces the file on a later sync, and records a failed sync as an errored job", async () => {
    files["/motd.txt"] = "hello";
    const s = await source("MOTD", "/motd.txt");
    await sync(s.id);
    files["/motd.txt"] = "hello again";
    await sync(s.id);
    const [file] = (await api.get(`/api/core/data-files/?source_id=${s.id}`)).body.results;
    expect(file.size).toBe(11);

    files["/motd.txt"] = { status: 404, body: "gone" };
    const failed = await sync(s.id);
    expect(failed.status).toBe(200);
    expect(failed.body.status.value).toBe("failed");
    const [job] = (await api.get(`/api/core/jobs/?object_id=${s.id}&status=errored`)).body.results;
    expect(job.error).toContain("HTTP 404");
    // The last good file stays.
    expect((await api.get(`/api/core/data-files/?source_id=${s.id}`)).body.count).toBe(1);
  });

  it("refuses what it cannot fetch: too large, blocked networks (also by redirect), types other than http, disabled sources", async () => {
    files["/big.json"] = "x".repeat(1001);
    const big = await sync((await source("Big", "/big.json")).id);
    expect(big.body.status.value).toBe("failed");
    const errorOf = async (id: number) => (await api.get(`/api/core/jobs/?object_id=${id}&status=errored`)).body.results[0].error;
    expect(await errorOf(big.body.id)).toContain("DATA_SOURCE_MAX_SIZE");

    const metadata = await api.post("/api/core/data-sources/", { name: "Meta", type: "http", source_url: "http://169.254.169.254/latest" });
    await sync(metadata.body.id);
    expect(await errorOf(metadata.body.id)).toContain("blocked network");
    files["/hop"] = { status: 302, headers: { Location: "http://169.254.169.254/latest" } };
    const hop = await source("Hop", "/hop");
    await sync(hop.id);
    expect(await errorOf(hop.id)).toContain("169.254.169.254");

    for (const type of ["git", "local", "amazon-s3"]) {
      const made = await api.post("/api/core/data-sources/", { name: `T ${type}`, type, source_url: "https://example.com/repo.git" });
      const refused = await sync(made.body.id);
      expect(refused.status).toBe(400);
      expect(refused.body.detail).toContain(`type ${type} cannot be synced`);
    }
    const off = await source("Off", "/ntp.json", { enabled: false });
    expect((await sync(off.id)).body.detail).toContain("disabled");
    expect((await api.post("/api/core/data-sources/", { name: "Bad", type: "ftp", source_url: "x" })).body.type).toEqual([
      "ftp is not a valid choice.",
    ]);
  });

  it("lets only holders of core.sync_datasource with a write token sync", async () => {
    files["/ok.txt"] = "ok";
    const s = await source("Perm", "/ok.txt");
    const readOnly = await api.token({ write_enabled: false });
    expect((await sync(s.id, readOnly)).status).toBe(403);
    const plain = await api.token({ superuser: false });
    expect((await sync(s.id, plain)).status).toBe(403);
    expect((await api.post(`/api/core/data-sources/${s.id}/sync/`, {}, { token: null })).status).toBe(403);
  });

  it("syncs config contexts and templates from data files: at once, by sync/, and by auto-sync", async () => {
    files["/ctx.yaml"] = "ntp:\n  - 10.0.0.1\n";
    files["/tpl.txt"] = "hostname {{device.name}}";
    const ctxSource = await source("Contexts", "/ctx.yaml");
    const tplSource = await source("Templates", "/tpl.txt");
    await sync(ctxSource.id);
    await sync(tplSource.id);
    const [ctxFile] = (await api.get(`/api/core/data-files/?source_id=${ctxSource.id}`)).body.results;

    const context = await api.post("/api/extras/config-contexts/", {
      name: "Synced",
      data: {},
      data_file: ctxFile.id,
      auto_sync_enabled: true,
    });
    expect(context.status, context.text).toBe(201);
    expect(context.body.data).toEqual({ ntp: ["10.0.0.1"] });
    expect(context.body.data_source).toMatchObject({ id: ctxSource.id, name: "Contexts" });
    expect(context.body.data_file).toMatchObject({ id: ctxFile.id, path: "ctx.yaml" });
    expect(context.body.data_path).toBe("ctx.yaml");
    expect(context.body.data_synced).toMatch(/^\d{4}-/);
    expect(context.body).not.toHaveProperty("auto_sync_enabled");

    const template = await api.post("/api/extras/config-templates/", {
      name: "Synced",
      template_code: "x",
      data_source: tplSource.id,
      data_path: "tpl.txt",
    });
    expect(template.status, template.text).toBe(201);
    expect(template.body.template_code).toBe("hostname {{device.name}}");

    // The source's sync carries new content to objects with auto_sync_enabled only.
    files["/ctx.yaml"] = '{"ntp": ["10.0.0.2"]}';
    files["/tpl.txt"] = "hostname {{device.name}}!";
    await sync(ctxSource.id);
    await sync(tplSource.id);
    expect((await api.get(`/api/extras/config-contexts/${context.body.id}/`)).body.data).toEqual({ ntp: ["10.0.0.2"] });
    expect((await api.get(`/api/extras/config-templates/${template.body.id}/`)).body.template_code).toBe("hostname {{device.name}}");
    const synced = await api.post(`/api/extras/config-templates/${template.body.id}/sync/`, {});
    expect(synced.status, synced.text).toBe(200);
    expect(synced.body.template_code).toBe("hostname {{device.name}}!");

    // Filters.
    const q = async (query: string) => (await api.get(`/api/extras/config-contexts/?${query}`)).body.count;
    expect(await q(`data_source_id=${ctxSource.id}`)).toBe(1);
    expect(await q(`data_file_id=${ctxFile.id}`)).toBe(1);
    expect(await q("auto_sync_enabled=true")).toBe(1);
    expect(await q("auto_sync_enabled=false")).toBe(0);
    expect(await q("data_synced__gte=2000-01-01T00:00:00Z")).toBe(1);
    expect((await api.get(`/api/extras/config-templates/?data_source_id=${tplSource.id}`)).body.count).toBe(1);

    // A source with objects synced from it is protected; a source without a file is refused.
    expect((await api.delete(`/api/core/data-sources/${ctxSource.id}/`)).status).toBe(409);
    const unsynced = await api.post("/api/extras/config-contexts/", { name: "No file", data: {}, data_source: ctxSource.id });
    expect(unsynced.body).toEqual({ data_file: ["Must specify a data file when designating a data source."] });
    const plain = await api.post("/api/extras/config-contexts/", { name: "Plain", data: { a: 1 } });
    expect((await api.post(`/api/extras/config-contexts/${plain.body.id}/sync/`, {})).status).toBe(400);
  });
});
