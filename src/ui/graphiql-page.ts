import type { RequestContext } from "../http/context.ts";
import { assetUrl, vendorAssetUrl } from "./assets.ts";
import { html, page, SECURITY_HEADERS, wantsHtml } from "./html.ts";

/** What the query editor shows on a first visit (GraphiQL keeps the user's own queries afterwards). */
const DEFAULT_QUERY = `# Ctrl-Enter runs the query, Ctrl-Space completes a field.
{
  site_list {
    id
    name
  }
}
`;

/**
 * The pages' CSP with what GraphiQL needs besides, for this page only: the fonts its stylesheet
 * embeds as `data:` URLs (a font runs nothing), and the one `<style>` element its dialogs
 * (settings, keyboard shortcuts) add to lock the page's scrolling while open (react-remove-scroll),
 * allowed by its hash. That text depends on the page's scrollbar and body margins, which this
 * layout keeps at 0 (GraphiQL fills the window); should it differ, only the scroll lock is lost.
 * test/browser/graphiql.test.ts opens a dialog, so a GraphiQL whose text has another hash fails it.
 */
const CSP_ADDITIONS: Readonly<Record<string, string>> = {
  "font-src": "data:",
  "style-src": "'sha256-nzTgYzXYDNe6BAHiiI7NNlfK8n/auuOAhh2t92YvuXo='",
};

const GRAPHIQL_CSP = SECURITY_HEADERS["Content-Security-Policy"]
  .split("; ")
  .map((directive) => [directive, CSP_ADDITIONS[directive.split(" ")[0]]].filter(Boolean).join(" "))
  .join("; ");

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
 * (their UMD builds, no CDN), under the pages' CSP with two additions (GRAPHIQL_CSP). Its queries
 * go to /graphql/ with the session cookie and CSRF token (graphiql-init.js); anonymous visitors
 * are sent to the login page while LOGIN_REQUIRED is on, as NetBox does.
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
    headers: { "Content-Security-Policy": GRAPHIQL_CSP },
    body: html`<div id="graphiql" data-endpoint="/graphql/" data-default-query="${DEFAULT_QUERY}"></div>`,
  });
}
