import { constantTimeEqual, encoder, fromBase64, toBase64 } from "./crypto.ts";

/**
 * PBKDF2-SHA256 through Web Crypto, stored in Django's `algorithm$iterations$salt$hash` form.
 * 100,000 iterations is the most workerd's Web Crypto accepts; the count is stored per hash, so
 * it can rise later without invalidating existing passwords.
 */
const ITERATIONS = 100_000;

async function pbkdf2(password: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, 256);
  return new Uint8Array(bits);
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const hash = await pbkdf2(password, salt, ITERATIONS);
  return `pbkdf2_sha256$${ITERATIONS}$${toBase64(salt)}$${toBase64(hash)}`;
}

export async function verifyPassword(password: string, encoded: string | null | undefined): Promise<boolean> {
  const [algorithm, iterations, salt, hash] = (encoded ?? "").split("$");
  if (algorithm !== "pbkdf2_sha256" || !hash) {
    // Spend the same work on unknown users, so timing does not reveal which usernames exist.
    await pbkdf2(password, new Uint8Array(16), ITERATIONS);
    return false;
  }
  const actual = await pbkdf2(password, fromBase64(salt), Number(iterations));
  return constantTimeEqual(toBase64(actual), hash);
}
