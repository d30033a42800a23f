import { request as httpsRequest } from "node:https";

/**
 * A minimal fetch that does not verify TLS certificates, for webhooks with `ssl_verification`
 * off on Node and Deno (the global fetch has no portable switch for it). No redirects are
 * followed, as with the verifying path; the caller's AbortSignal bounds the whole exchange.
 */
export const insecureFetch: typeof fetch = (input, init = {}) =>
  new Promise<Response>((resolve, reject) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    if (url.protocol !== "https:") return resolve(fetch(input, init));
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const req = httpsRequest(
      url,
      { method: init.method ?? "GET", headers, rejectUnauthorized: false, signal: init.signal ?? undefined },
      (res) => {
        const stream = new ReadableStream<Uint8Array>({
          start(controller) {
            res.on("data", (chunk: Buffer) => controller.enqueue(new Uint8Array(chunk)));
            res.on("end", () => controller.close());
            res.on("error", (e) => controller.error(e));
          },
          cancel: () => void res.destroy(),
        });
        const status = res.statusCode ?? 0;
        const responseHeaders = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) responseHeaders.set(k, Array.isArray(v) ? v.join(", ") : v);
        resolve(new Response([101, 204, 205, 304].includes(status) ? null : stream, { status, headers: responseHeaders }));
      },
    );
    req.on("error", reject);
    req.end(typeof init.body === "string" ? init.body : undefined);
  });
