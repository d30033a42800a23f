/**
 * Uploaded files on Workers: an image attachment's file goes to the `MEDIA` R2 bucket binding
 * (wrangler.toml `[[r2_buckets]]`, Miniflare's local R2 here), is served back at its URL, and the
 * cron sweep removes it once its attachment is deleted.
 */
import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/worker.ts";
import { ADMIN_TOKEN, call, unique } from "./support.ts";

interface Bucket {
  get(key: string): Promise<{ arrayBuffer(): Promise<ArrayBuffer>; httpMetadata?: { contentType?: string } } | null>;
}
const bucket = env.MEDIA as Bucket;

/** The first bytes of a PNG of this size (its header is all a reader needs). */
function png(width: number, height: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(33);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(bytes.buffer).setUint32(16, width);
  new DataView(bytes.buffer).setUint32(20, height);
  return bytes;
}

describe("uploaded files under workerd", () => {
  it("keeps an image attachment's file in R2, serves it at its URL and removes it at the sweep after a delete", async () => {
    const id = unique();
    const site = await call("POST", "/api/dcim/sites/", { body: { name: `Pictured ${id}`, slug: `pictured-${id}` } });
    expect(site.status, site.text).toBe(201);
    const form = new FormData();
    form.append("object_type", "dcim.site");
    form.append("object_id", String(site.body.id));
    form.append("image", new Blob([png(64, 48)], { type: "image/png" }), "rack.png");
    const response = await exports.default.fetch(
      new Request("http://inventory.test/api/extras/image-attachments/", {
        method: "POST",
        headers: { Authorization: `Token ${ADMIN_TOKEN}` },
        body: form,
      }),
    );
    const made = (await response.json()) as { id: number; image: string; image_width: number; image_height: number };
    expect(response.status, JSON.stringify(made)).toBe(201);
    expect(made).toMatchObject({ image_width: 64, image_height: 48 });
    const key = made.image.slice("http://inventory.test/media/".length);
    const stored = await bucket.get(key);
    expect(stored?.httpMetadata?.contentType).toBe("image/png");
    expect(new Uint8Array(await stored!.arrayBuffer())).toEqual(png(64, 48));

    const served = await call("GET", `/media/${key}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("image/png");

    expect((await call("DELETE", `/api/extras/image-attachments/${made.id}/`)).status).toBe(204);
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "* * * * *" }), env as never, ctx as never);
    await waitOnExecutionContext(ctx);
    expect(await bucket.get(key)).toBeNull();
    expect((await call("GET", `/media/${key}`)).status).toBe(404);
    expect((await call("DELETE", `/api/dcim/sites/${site.body.id}/`)).status).toBe(204);
  });
});
