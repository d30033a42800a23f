import { createHmac } from "node:crypto";
import type { HmacSha256 } from "../lib/secrets.ts";

/** HMAC-SHA256 in hex through node:crypto, synchronous (Node and Deno both have it). */
export const nodeHmac: HmacSha256 = (key, data) => createHmac("sha256", key).update(data).digest("hex");
