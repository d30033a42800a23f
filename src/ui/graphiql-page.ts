import type { RequestContext } from "../http/context.ts";
import { assetUrl, vendorAssetUrl } from "./assets.ts";
import { html, page, wantsHtml } from "./html.ts";

/** What the query editor shows on a first visit (GraphiQL keeps the user's own queries afterwards). */
const DEFAULT_QUERY = `# GraphiQL runs read-only GraphQL queries against /graphql/, signed in as you.
# Ctrl-Enter runs the query; Ctrl-Space completes fields.
{
  site_list {
    id
    name
  }
}
`;

/**
 * True when /graphql/ should answer with GraphiQL: a browser's GET (or HEAD) asking for a page
 * (`Accept` preferring HTML, as for the browsable API), without a `query` to run.
 */
export function wantsGraphiql(ctx: RequestContext): boolean {
  const method = ctx.request.method;
  return (method === "GET" || method === "HEAD") && !ctx.url.searchParams.has("query") && wantsHtml(ctx.request, ctx.url);
}

/**
 * GET /graphql/ from a browser: GraphiQL from this service's own copies of `graphiql` and React 18
 * (their UMD builds, no CDN), under the pages' CSP. Its queries go to /graphql/ with the session
 * cookie and CSRF token (graphiql-init.js); anonymous visitors are sent to the login page while
 * LOGIN_REQUIRED is on, as NetBox does.
 */
export function graphiqlPage(ctx: RequestContext): Response {
  if (ctx.config.LOGIN_REQUIRED && !ctx.user) {
    const next = encodeURIComponent(ctx.url.pathname + ctx.url.search);
    return new Response(null, { status: 302, headers: { Location: `/login/?next=${next}`, "Cache-Control": "no-store" } });
  }
  return page(ctx, {
    title: "GraphiQL",
    plain: false,
    styles: [vendorAssetUrl("graphiql", "graphiql.min.css"), assetUrl("graphiql.css")],
    scripts: [
      vendorAssetUrl("react", "react.production.min.js"),
      vendorAssetUrl("react-dom", "react-dom.production.min.js"),
      vendorAssetUrl("graphiql", "graphiql.min.js"),
      assetUrl("graphiql-init.js"),
    ],
    body: html`<div id="graphiql" data-endpoint="/graphql/" data-default-query="${DEFAULT_QUERY}"></div>`,
  });
}
