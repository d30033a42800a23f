import type { RequestContext } from "../http/context.ts";
import { ApiError } from "../schema/errors.ts";
import { credentialsOf, safeNext, signIn } from "../auth/sessions.ts";
import { html, page } from "./html.ts";

interface LoginState {
  readonly error?: string;
  readonly username?: string;
  readonly next?: string;
  readonly status?: number;
  readonly headers?: Record<string, string>;
}

/** The login form; after a refused attempt, with what went wrong and the username given. */
function loginPage(ctx: RequestContext, state: LoginState = {}): Response {
  const next = safeNext(state.next ?? ctx.url.searchParams.get("next"));
  const body = html`<section class="card login">
  <h1>Log in</h1>
  ${ctx.user ? html`<p class="muted">You are logged in as <strong>${ctx.user.username}</strong>. Logging in again replaces that session.</p>` : null}
  ${state.error ? html`<p class="error" role="alert">${state.error}</p>` : null}
  <form method="post" action="/login/">
    <input type="hidden" name="next" value="${next}">
    <label for="username">Username</label>
    <input type="text" id="username" name="username" value="${state.username ?? ""}" autocomplete="username" autocapitalize="none" required autofocus>
    <label for="password">Password</label>
    <input type="password" id="password" name="password" autocomplete="current-password" required>
    <div class="actions"><button type="submit">Log in</button></div>
  </form>
  <p class="muted">Scripts authenticate with an API token instead: <code>Authorization: Token &lt;key&gt;</code>.</p>
</section>`;
  return page(ctx, { title: "Log in", body, status: state.status, headers: state.headers });
}

/** An error's message for a person: its `detail`, or each field's first message. */
function messageOf(error: ApiError): string {
  const body = error.body as Record<string, unknown>;
  if (typeof body?.detail === "string") return body.detail;
  return Object.entries(body ?? {})
    .map(([field, messages]) => `${field[0].toUpperCase()}${field.slice(1)}: ${Array.isArray(messages) ? messages[0] : messages}`)
    .join(" ");
}

/**
 * A login a browser posts names this host in `Origin`: a page elsewhere may not sign a visitor
 * in to an account of its choosing (login CSRF). Scripts send no Origin. Only the host is
 * compared, as a proxy in front may change the scheme.
 */
function fromThisSite(ctx: RequestContext): boolean {
  const origin = ctx.request.headers.get("Origin");
  if (origin === null) return true;
  return URL.canParse(origin) && new URL(origin).host === ctx.url.host;
}

const CROSS_SITE = "A login from another site was refused.";

/**
 * /login/: GET shows the form. POST signs in; a form is redirected to `next`, and a refused form
 * login shows the form again with the reason (same status), while JSON clients keep their JSON.
 */
export async function loginEndpoint(ctx: RequestContext): Promise<Response> {
  if (ctx.request.method !== "POST") return loginPage(ctx);
  const credentials = await credentialsOf(ctx);
  const { fields, form } = credentials;
  const state = {
    username: typeof fields.username === "string" ? fields.username : "",
    next: typeof fields.next === "string" ? fields.next : undefined,
  };
  // JSON too: a page elsewhere can post JSON-shaped text as a text/plain form.
  if (!fromThisSite(ctx)) {
    if (!form) throw ApiError.forbidden(CROSS_SITE);
    return loginPage(ctx, { ...state, error: CROSS_SITE, status: 403 });
  }
  if (!form) return signIn(ctx, credentials);
  try {
    return await signIn(ctx, credentials);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return loginPage(ctx, { ...state, error: messageOf(error), status: error.status, headers: error.headers });
  }
}

/**
 * GET /logout/: a page with the logout button (the header has the same one). The button posts
 * with the session's CSRF token, sent by `app.js`; POST /logout/ itself answers JSON.
 */
export function logoutPage(ctx: RequestContext): Response {
  const body = ctx.user
    ? html`<section class="card"><h1>Log out</h1><p>You are logged in as <strong>${ctx.user.username}</strong>.</p>
  <form method="post" action="/logout/"><button type="submit">Log out</button></form></section>`
    : html`<section class="card"><h1>Logged out</h1><p>You are not logged in. <a href="/login/">Log in</a> or go to <a href="/api/">the API</a>.</p></section>`;
  return page(ctx, { title: "Log out", body });
}
