import type { RequestContext } from "../http/context.ts";
import { assetUrl, vendorAssetUrl } from "./assets.ts";
import { html, page } from "./html.ts";

/**
 * GET /api/schema/swagger-ui/: Swagger UI from this service's own copy of swagger-ui-dist, over
 * the OpenAPI document at /api/schema/?format=json. "Authorize" takes `Token <key>`; a signed-in
 * browser's session cookie is sent as well.
 */
export function swaggerPage(ctx: RequestContext): Response {
  return page(ctx, {
    title: "API documentation",
    plain: false,
    styles: [vendorAssetUrl("swagger-ui", "swagger-ui.css")],
    scripts: [vendorAssetUrl("swagger-ui", "swagger-ui-bundle.js"), assetUrl("swagger-init.js")],
    body: html`<div id="swagger-ui" data-schema-url="/api/schema/?format=json"></div>`,
  });
}
