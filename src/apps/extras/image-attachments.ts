import type { FieldOptions, Model, RowSql } from "../../schema/shapes.ts";
import type { Actor } from "../../schema/actor.ts";
import type { ModelHooks, WriteItem } from "../../schema/hooks.ts";
import * as v from "valibot";
import { sql } from "kysely";
import { f } from "../../schema/fields.ts";
import { defineModel } from "../../schema/model.ts";
import { ApiError } from "../../schema/errors.ts";
import { qb } from "../../db/query-builder.ts";
import { fromBase64, randomHex } from "../../lib/crypto.ts";
import { imageInfo, type ImageInfo } from "../../lib/image-size.ts";
import { isUpload, type FileStore } from "../../lib/file-store.ts";
import type { Database } from "../../db/database.ts";
import { objectTypeIdFilters } from "./object-types.ts";

/*
 * Images kept as files (NetBox's ImageField): image attachments on any object, and a device
 * type's front and rear images. The file goes to the runtime's file store (`Actor.files`: a folder
 * beside the database on Node and Deno, an R2 bucket on Workers) under a name the service makes;
 * the row keeps that name, and the API shows it as an absolute URL below `/media/`, where the
 * service serves it back. A replaced or deleted image's file is removed once the change has
 * committed: triggers (migration 0028) list the name in `core_fileremoval` inside the write's own
 * transaction, and the sweep removes what is listed (`removeListedFiles`).
 */

/** An image as validated: its bytes and what its header says. */
export interface ImageValue {
  readonly image: true;
  readonly data: Uint8Array;
  readonly info: ImageInfo;
  /** The client's file name, for the stored name's readable part. */
  readonly filename: string;
}

const NOT_A_FILE = "The submitted data was not a file. Check the encoding type on the form.";
const NOT_AN_IMAGE = "Upload a valid image. The file you uploaded was either not an image or a corrupted image.";

/**
 * The input of an image: a file sent in a multipart/form-data body, as NetBox takes it, or (a
 * convenience for JSON clients) a `data:image/...;base64,` URL; null clears a nullable one.
 */
const imageInput = (nullable: boolean) =>
  v.pipe(
    v.unknown(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const x = dataset.value;
      if (x === null || x === "") {
        if (nullable) return null;
        addIssue({ message: x === null ? "This field may not be null." : "No file was submitted." });
        return NEVER;
      }
      const sent = isUpload(x)
        ? { data: x.data, filename: x.filename }
        : typeof x === "string" && /^data:image\/[a-z.+-]+;base64,/i.test(x)
          ? decodeDataUrl(x)
          : null;
      if (!sent) {
        addIssue({ message: NOT_A_FILE });
        return NEVER;
      }
      const info = sent.data.length ? imageInfo(sent.data) : null;
      if (!info) {
        addIssue({ message: sent.data.length ? NOT_AN_IMAGE : "The submitted file is empty." });
        return NEVER;
      }
      return { image: true, data: sent.data, info, filename: sent.filename } satisfies ImageValue;
    }),
  );

function decodeDataUrl(url: string): { data: Uint8Array; filename: string } | null {
  try {
    return { data: fromBase64(url.slice(url.indexOf(",") + 1).replace(/\s+/g, "")), filename: "image" };
  } catch {
    return null;
  }
}

/** The URL path an image column's stored name is served at, as SQL (null when there is none). */
const mediaPath =
  (column: string): RowSql =>
  (t) =>
    sql`CASE WHEN ${sql.ref(`${t}.${column}`)} <> '' THEN '/media/' || ${sql.ref(`${t}.${column}`)} END`;

/**
 * An image field: read as the absolute URL of its file (null when none), written as a file. Its
 * stored name lives in the model's `storage` column of the same name (declare it), and the model's
 * hooks must include `imageHooks` for it.
 */
export const imageField = (o: { readonly required?: boolean; readonly nullable?: boolean } = {}): FieldOptions => ({
  ...f.computed(() => sql`NULL`, { nullable: o.nullable ?? false, returns: "string" }),
  // Replaced per field in `imageFields` (the SQL needs the column's name).
  readOnly: false,
  required: o.required ?? false,
  input: imageInput(o.nullable ?? false),
  helpText: "A PNG, JPEG or GIF file (multipart/form-data), or a data:image/...;base64, URL; read as the file's URL.",
});

/** Image fields named by their columns, with their SQL. */
export function imageFields(fields: Readonly<Record<string, FieldOptions>>): Record<string, FieldOptions> {
  return Object.fromEntries(Object.entries(fields).map(([name, o]) => [name, { ...o, sql: mediaPath(name) }]));
}

/** What to store about one image: the folder below the media root and the readable part of the name. */
export interface ImageSpec {
  readonly folder: string;
  /** The stored name's readable start (`site_7`), from the item. */
  readonly prefix: (item: WriteItem) => string;
  /** Columns also set from the image (an attachment's height, width and size). */
  readonly sizes?: boolean;
}

/**
 * The hooks of a model with image fields, by field name: a write stores each new image's file
 * (within IMAGE_MAX_SIZE) and sets its column; a read turns each column's path into an absolute
 * URL. Files a write or delete leaves behind are listed by triggers and removed by the sweep.
 */
export function imageHooks(specs: Readonly<Record<string, ImageSpec>>): ModelHooks {
  const names = Object.keys(specs);
  return {
    async prepareWrite(ctx, items) {
      const writes: Promise<void>[] = [];
      for (const item of items) {
        for (const name of names) {
          const value = item.values[name] as ImageValue | null | undefined;
          if (value === undefined) continue;
          delete item.values[name];
          if (value === null) {
            item.columns[name] = "";
            continue;
          }
          if (value.data.length > ctx.config.IMAGE_MAX_SIZE) {
            item.errors[name] = [`The file is larger than ${ctx.config.IMAGE_MAX_SIZE} bytes (IMAGE_MAX_SIZE).`];
            continue;
          }
          const spec = specs[name];
          const stored = `${spec.folder}/${safePart(spec.prefix(item))}_${safePart(stem(value.filename))}_${randomHex(4)}.${value.info.ext}`;
          item.columns[name] = stored;
          if (spec.sizes)
            Object.assign(item.columns, { image_width: value.info.width, image_height: value.info.height, size: value.data.length });
          writes.push(filesOf(ctx).put(stored, value.data, value.info.contentType));
        }
      }
      // Stored before the transaction: a write that then fails leaves a file no row names, which
      // the next removal pass does not see (harmless; it is never served, as no URL names it).
      await Promise.all(writes);
    },
    represent(ctx, _rows, outs) {
      for (const out of outs) for (const name of names) if (typeof out[name] === "string") out[name] = `${ctx.origin}${out[name]}`;
    },
  };
}

function filesOf(ctx: Actor) {
  if (!ctx.files)
    throw ApiError.detail("service_unavailable", "File storage is not configured on this server, so files cannot be uploaded.");
  return ctx.files;
}

const stem = (filename: string) => filename.replace(/^.*[\\/]/, "").replace(/\.[^.]*$/, "") || "image";
/** A name part safe in any file system and URL: letters, digits, `-` and `_`, at most 40 characters. */
const safePart = (s: string) =>
  s
    .replace(/[^A-Za-z0-9_-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40) || "x";

/**
 * Removes the files committed writes listed in `core_fileremoval` (replaced and deleted images,
 * also those deleted by cascade with their object), and their rows: run by the sweep (every
 * WEBHOOK_SWEEP_INTERVAL on Node and Deno, the cron trigger on Workers), so a file goes at most
 * that long after its row, and never before the change that dropped it has committed.
 */
export async function removeListedFiles(db: Database, files: FileStore, limit = 1000): Promise<number> {
  const [listed] = await db.batch([sql`SELECT id, name FROM core_fileremoval ORDER BY id LIMIT ${limit}`.compile(qb)], "read");
  if (!listed.rows.length) return 0;
  await Promise.all(listed.rows.map((r) => files.delete(String(r.name))));
  const ids = JSON.stringify(listed.rows.map((r) => Number(r.id)));
  await db.batch([sql`DELETE FROM core_fileremoval WHERE id IN (SELECT value FROM json_each(${ids}))`.compile(qb)], "write");
  return listed.rows.length;
}

/** Every model an image may be attached to: those with tags and custom fields (NetBox's primary models). */
const attachable = (models: readonly Model[]): readonly Model[] =>
  models.filter((m) => m.field.tags && m.objectType !== "extras.imageattachment");

/** "name", or the file's name when the attachment has none, as NetBox prints one. */
const attachmentDisplay: RowSql = (t) =>
  sql`CASE WHEN ${sql.ref(`${t}.name`)} <> '' THEN ${sql.ref(`${t}.name`)} ELSE substr(${sql.ref(`${t}.image`)}, instr(${sql.ref(`${t}.image`)}, '/') + 1) END`;

/** NetBox's image attachment: an image on any object (`object_type`, `object_id`), read with its `parent`. */
export const imageAttachment = defineModel({
  app: "extras",
  name: "imageattachment",
  verboseName: "image attachment",
  className: "ImageAttachment",
  taggable: false,
  fields: {
    object: f.generic(attachable, { nestedAs: "parent" }),
    name: f.string({ maxLength: 50, blank: true }),
    ...imageFields({ image: imageField({ required: true }) }),
    image_height: f.integer({ readOnly: true }),
    image_width: f.integer({ readOnly: true }),
    size: f.integer({ readOnly: true, helpText: "Bytes of the image file." }),
  },
  storage: { image: "TEXT NOT NULL DEFAULT ''" },
  brief: ["name", "image"],
  display: attachmentDisplay,
  search: ["name"],
  ordering: ["name", "id"],
  filters: objectTypeIdFilters("object_type_id", "object_type"),
  hooks: imageHooks({
    image: {
      folder: "image-attachments",
      prefix: (item) => {
        const o = (item.values.object ?? null) as { type: string; id: number } | null;
        return o
          ? `${o.type.split(".")[1]}_${o.id}`
          : `${String(item.current?.object_type ?? "").split(".")[1]}_${item.current?.object_id}`;
      },
      sizes: true,
    },
  }),
});

export const imageAttachmentModels = [imageAttachment];
