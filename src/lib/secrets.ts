import { encoder, fromBase64, toBase64, toHex } from "./crypto.ts";

/** The keys derived from SECRET_KEY, with the operations that use them. */
export interface Secrets {
  /** Keyed hash of a token key: what is stored and looked up, never the key itself. */
  tokenDigest(key: string): Promise<string>;
  /** AES-GCM encryption of a token key, kept only while ALLOW_TOKEN_RETRIEVAL is on. */
  encrypt(plain: string): Promise<string>;
  decrypt(sealed: string): Promise<string>;
}

/**
 * An HMAC-SHA256 in hex the runtime may offer instead of Web Crypto's: Node's is synchronous and
 * costs microseconds where `crypto.subtle.sign` costs a job on the thread pool per request (a
 * tenth of a millisecond, the largest cost of authenticating). Same key, same digest.
 */
export type HmacSha256 = (key: Uint8Array, data: string) => string;

/**
 * Derives independent keys from SECRET_KEY with HKDF, so the digest key and the encryption key
 * never coincide and SECRET_KEY itself is used for nothing else.
 */
export async function deriveSecrets(secretKey: string, hmac?: HmacSha256): Promise<Secrets> {
  const material = await crypto.subtle.importKey("raw", encoder.encode(secretKey), "HKDF", false, ["deriveKey", "deriveBits"]);
  const hkdf = (info: string): HkdfParams => ({ name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: encoder.encode(info) });
  // The digest key as its 256 raw bits: what `hmac` takes, and, imported, the same HMAC key deriveKey would give.
  const digestKey = new Uint8Array(await crypto.subtle.deriveBits(hkdf("inventory token digest v1"), material, 256));
  const hmacKey = hmac ? null : await crypto.subtle.importKey("raw", digestKey, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const aesKey = await crypto.subtle.deriveKey(hkdf("inventory token encryption v1"), material, { name: "AES-GCM", length: 256 }, false, [
    "encrypt",
    "decrypt",
  ]);

  return {
    tokenDigest: hmac
      ? async (key) => hmac(digestKey, key)
      : async (key) => toHex(await crypto.subtle.sign("HMAC", hmacKey!, encoder.encode(key))),
    async encrypt(plain) {
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, aesKey, encoder.encode(plain)));
      const out = new Uint8Array(iv.length + sealed.length);
      out.set(iv);
      out.set(sealed, iv.length);
      return toBase64(out);
    },
    async decrypt(sealed) {
      const bytes = fromBase64(sealed);
      const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: bytes.slice(0, 12) }, aesKey, bytes.slice(12));
      return new TextDecoder().decode(plain);
    },
  };
}
