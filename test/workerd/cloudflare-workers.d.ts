/** The part of `cloudflare:workers` these tests use: the main module's exports, as loopback fetchers. */
declare module "cloudflare:workers" {
  export const exports: {
    readonly default: { fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> };
  };
}
