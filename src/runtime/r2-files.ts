import { contentTypeOf, isSafeFileName, type FileStore } from "../lib/file-store.ts";

/** The members of a Workers R2 bucket binding this store uses (`R2Bucket`). */
export interface R2BucketLike {
  put(key: string, value: Uint8Array, options?: { httpMetadata?: { contentType?: string } }): Promise<unknown>;
  get(key: string): Promise<{ arrayBuffer(): Promise<ArrayBuffer>; httpMetadata?: { contentType?: string } } | null>;
  delete(key: string): Promise<void>;
}

/** A file store over an R2 bucket binding (Workers: `MEDIA` in wrangler.toml); the name is the object's key. */
export function r2Files(bucket: R2BucketLike): FileStore {
  return {
    async put(name, data, contentType) {
      if (!isSafeFileName(name)) throw new Error(`not a stored file name: ${name}`);
      await bucket.put(name, data, { httpMetadata: { contentType } });
    },
    async get(name) {
      if (!isSafeFileName(name)) return null;
      const object = await bucket.get(name);
      if (!object) return null;
      return { data: new Uint8Array(await object.arrayBuffer()), contentType: object.httpMetadata?.contentType ?? contentTypeOf(name) };
    },
    async delete(name) {
      if (isSafeFileName(name)) await bucket.delete(name);
    },
  };
}
