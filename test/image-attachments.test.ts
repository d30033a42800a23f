import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, ORIGIN, type Harness } from "./support/harness.ts";
import { make } from "./contract/fixtures.ts";
import { pngBytes, pngDataUrl } from "./support/file-server.ts";

/** A JPEG's first segments: SOI, an APP0 segment, then a baseline frame header of this size. */
function jpegBytes(width: number, height: number): Uint8Array {
  const app0 = [0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0];
  const sof = [0xff, 0xc0, 0, 17, 8, height >> 8, height & 255, width >> 8, width & 255, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1];
  return new Uint8Array([0xff, 0xd8, ...app0, ...sof, 0xff, 0xd9]);
}
const gifBytes = (width: number, height: number) =>
  new Uint8Array([...new TextEncoder().encode("GIF89a"), width & 255, width >> 8, height & 255, height >> 8, 0, 0, 0]);

/** A multipart/form-data body, as NetBox's clients upload images. */
function form(fields: Record<string, string | number>, files: Record<string, [Uint8Array, string, string]> = {}): FormData {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, String(v));
  for (const [k, [bytes, name, type]] of Object.entries(files))
    body.append(k, new Blob([bytes as Uint8Array<ArrayBuffer>], { type }), name);
  return body;
}

describe("image attachments and device type images", () => {
  let api: Harness;
  let site: number;
  const path = (url: string) => url.slice(ORIGIN.length);
  const fetched = (url: string, token?: string | null) => api.get(path(url), token === undefined ? {} : { token });

  beforeAll(async () => {
    api = await createHarness({ IMAGE_MAX_SIZE: "4096" });
    site = await make(api, "/api/dcim/sites/", { name: "HQ", slug: "hq" });
  });
  afterAll(() => api.close());

  it("takes an image by multipart/form-data, reads its size from the header and serves the file at its URL", async () => {
    const png = pngBytes(12, 34);
    const made = await api.post(
      "/api/extras/image-attachments/",
      form({ object_type: "dcim.site", object_id: site, name: "Front door" }, { image: [png, "front door.png", "image/png"] }),
    );
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({
      object_type: "dcim.site",
      object_id: site,
      name: "Front door",
      image_width: 12,
      image_height: 34,
      size: 33,
    });
    expect(made.body.parent).toMatchObject({ id: site, name: "HQ" });
    expect(made.body.display).toBe("Front door");
    expect(made.body.image).toMatch(new RegExp(`^${ORIGIN}/media/image-attachments/site_${site}_front-door_[0-9a-f]{8}\\.png$`));

    const file = await fetched(made.body.image);
    expect(file.status).toBe(200);
    expect(file.headers.get("Content-Type")).toBe("image/png");
    expect(file.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect((await fetched(made.body.image, null)).status).toBe(403);
    expect((await api.get("/media/image-attachments/..%2F..%2Fsecret_key.png")).status).toBe(404);

    const brief = await api.get(`/api/extras/image-attachments/${made.body.id}/?brief=1`);
    expect(brief.body).toEqual({ id: made.body.id, url: made.body.url, display: "Front door", name: "Front door", image: made.body.image });
  });

  it("reads JPEG and GIF sizes, takes data: URLs from JSON clients, and refuses what is no image or too large", async () => {
    const upload = (bytes: Uint8Array, name: string, type: string) =>
      api.post("/api/extras/image-attachments/", form({ object_type: "dcim.site", object_id: site }, { image: [bytes, name, type] }));
    const jpeg = await upload(jpegBytes(640, 480), "cam.jpg", "image/jpeg");
    expect(jpeg.body).toMatchObject({
      image_width: 640,
      image_height: 480,
      display: expect.stringMatching(/^site_\d+_cam_[0-9a-f]{8}\.jpg$/),
    });
    const gif = await upload(gifBytes(300, 200), "anim.gif", "image/gif");
    expect(gif.body).toMatchObject({ image_width: 300, image_height: 200 });
    const json = await api.post("/api/extras/image-attachments/", { object_type: "dcim.site", object_id: site, image: pngDataUrl(5, 6) });
    expect(json.body).toMatchObject({ image_width: 5, image_height: 6 });

    expect((await upload(new TextEncoder().encode("not an image"), "x.png", "image/png")).body).toEqual({
      image: ["Upload a valid image. The file you uploaded was either not an image or a corrupted image."],
    });
    expect((await upload(new Uint8Array([...pngBytes(1, 1), ...new Uint8Array(5000)]), "big.png", "image/png")).body).toEqual({
      image: ["The file is larger than 4096 bytes (IMAGE_MAX_SIZE)."],
    });
    const missing = await api.post("/api/extras/image-attachments/", form({ object_type: "dcim.site", object_id: site }));
    expect(missing.body.image).toEqual(["This field is required."]);
    const noObject = await api.post(
      "/api/extras/image-attachments/",
      form({ object_type: "dcim.site", object_id: 999 }, { image: [pngBytes(1, 1), "a.png", "image/png"] }),
    );
    expect(noObject.status).toBe(400);
    const url = await api.post("/api/extras/image-attachments/", {
      object_type: "dcim.site",
      object_id: site,
      image: "https://example.com/a.png",
    });
    expect(url.body.image).toEqual(["The submitted data was not a file. Check the encoding type on the form."]);
  });

  it("filters by object, name and size", async () => {
    const q = async (query: string) => (await api.get(`/api/extras/image-attachments/?${query}`)).body.count;
    const typeId = (await api.get("/api/extras/object-types/?app_label=dcim&model=site")).body.results[0].id;
    const all = await q("limit=0");
    expect(await q(`object_type=dcim.site&object_id=${site}`)).toBe(all);
    expect(await q(`object_type_id=${typeId}`)).toBe(all);
    expect(await q(`object_type_id__n=${typeId}`)).toBe(0);
    expect(await q("name=Front door")).toBe(1);
    expect(await q("image_width=640")).toBe(1);
    expect(await q("image_height__gte=100")).toBe(2);
  });

  it("removes a replaced or deleted image's file at the next sweep, also when its object is deleted", async () => {
    const other = await make(api, "/api/dcim/sites/", { name: "Depot", slug: "depot" });
    const made = await api.post(
      "/api/extras/image-attachments/",
      form({ object_type: "dcim.site", object_id: other }, { image: [pngBytes(2, 2), "a.png", "image/png"] }),
    );
    const replaced = await api.patch(
      `/api/extras/image-attachments/${made.body.id}/`,
      form({}, { image: [pngBytes(3, 3), "b.png", "image/png"] }),
    );
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body).toMatchObject({ image_width: 3, image_height: 3 });
    expect(replaced.body.image).not.toBe(made.body.image);
    expect((await fetched(made.body.image)).status).toBe(200);
    await api.queue.sweepNow();
    expect((await fetched(made.body.image)).status).toBe(404);
    expect((await fetched(replaced.body.image)).status).toBe(200);

    // The object goes, its attachments with it, and their files at the sweep.
    expect((await api.delete(`/api/dcim/sites/${other}/`)).status).toBe(204);
    expect((await api.get(`/api/extras/image-attachments/${made.body.id}/`)).status).toBe(404);
    await api.queue.sweepNow();
    expect((await fetched(replaced.body.image)).status).toBe(404);
  });

  it("gives device types front and rear images, null when none", async () => {
    const manufacturer = await make(api, "/api/dcim/manufacturers/", { name: "Acme", slug: "acme" });
    const made = await api.post(
      "/api/dcim/device-types/",
      form({ manufacturer, model: "R1", slug: "r1" }, { front_image: [pngBytes(400, 40), "front.png", "image/png"] }),
    );
    expect(made.status, made.text).toBe(201);
    expect(made.body.front_image).toMatch(new RegExp(`^${ORIGIN}/media/devicetype-images/r1-front_front_[0-9a-f]{8}\\.png$`));
    expect(made.body.rear_image).toBeNull();
    expect((await fetched(made.body.front_image)).status).toBe(200);
    expect((await api.get("/api/dcim/device-types/?has_front_image=true")).body.count).toBe(1);
    expect((await api.get("/api/dcim/device-types/?has_rear_image=true")).body.count).toBe(0);

    const cleared = await api.patch(`/api/dcim/device-types/${made.body.id}/`, { front_image: null, rear_image: pngDataUrl(4, 4) });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.front_image).toBeNull();
    expect(cleared.body.rear_image).toMatch(/\/media\/devicetype-images\/r1-rear_image_[0-9a-f]{8}\.png$/);
    await api.queue.sweepNow();
    expect((await fetched(made.body.front_image)).status).toBe(404);
    // A JSON client reading an object and writing it back unchanged sends the URL: not a file.
    const back = await api.patch(`/api/dcim/device-types/${made.body.id}/`, { rear_image: cleared.body.rear_image });
    expect(back.status).toBe(400);
  });
});
