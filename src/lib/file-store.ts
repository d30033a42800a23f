/**
 * Where uploaded files (image attachments, device type images) are kept: a runtime service,
 * injected by each entry like the database. Node and Deno keep them in a folder beside the
 * database (`src/runtime/folder-files.ts`), Workers in an R2 bucket binding (`src/runtime/r2-files.ts`).
 * Names are relative paths made by the service (`image-attachments/site_7_a1b2c3d4.png`), never
 * chosen by a client.
 */
export interface FileStore {
  /** Stores `data` under `name`, replacing any file of that name. */
  put(name: string, data: Uint8Array, contentType: string): Promise<void>;
  /** The file's bytes and type, or null when there is none. */
  get(name: string): Promise<StoredFile | null>;
  /** Removes the file; a name with no file is no error. */
  delete(name: string): Promise<void>;
}

/** A file as read back. */
export interface StoredFile {
  readonly data: Uint8Array;
  readonly contentType: string;
}

/** A file sent in a multipart/form-data body, read whole (within MAX_BODY_SIZE) by the pipeline. */
export interface Upload {
  readonly upload: true;
  /** The file name the client gave, as sent (used only for its extension). */
  readonly filename: string;
  readonly contentType: string;
  readonly data: Uint8Array;
}

export const isUpload = (x: unknown): x is Upload => typeof x === "object" && x !== null && (x as Upload).upload === true;

/** The content type a stored name's extension stands for. */
export function contentTypeOf(name: string): string {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? "";
  return (
    { png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", gif: "image/gif", webp: "image/webp" }[ext] ?? "application/octet-stream"
  );
}

/** Whether a stored name is one the service could have made: no `..`, no absolute path, no odd characters. */
export const isSafeFileName = (name: string): boolean =>
  /^[a-z0-9-]+\/[A-Za-z0-9._-]+$/.test(name) && !name.includes("..") && name.length <= 200;
