/**
 * Starts GraphiQL on /graphql/ (a file, as the pages' CSP allows no inline code). The page names
 * the endpoint in `data-endpoint` on `#graphiql`. Queries are POSTed there as JSON, same-origin,
 * so a signed-in browser's session cookie authenticates them; a cookie-authenticated POST needs
 * the session's CSRF token in `X-CSRFToken`, read from the `csrftoken` cookie by `csrfToken()` of
 * app.js, which every page loads first. Headers typed in GraphiQL's Headers tab (such as
 * `Authorization: Token <key>`) are sent as well, and not kept in the browser's storage.
 */
export const GRAPHIQL_INIT_JS = `"use strict";
window.addEventListener("DOMContentLoaded", function () {
  var root = document.getElementById("graphiql");
  var endpoint = root.getAttribute("data-endpoint");

  function fetcher(params, options) {
    var headers = { "Accept": "application/json", "Content-Type": "application/json", "X-CSRFToken": csrfToken() };
    var extra = (options && options.headers) || {};
    Object.keys(extra).forEach(function (name) { headers[name] = extra[name]; });
    return fetch(endpoint, { method: "POST", credentials: "same-origin", headers: headers, body: JSON.stringify(params) })
      .then(function (response) {
        return response.text().then(function (text) {
          try {
            return JSON.parse(text);
          } catch (e) {
            return { errors: [{ message: "HTTP " + response.status + ": " + text }] };
          }
        });
      });
  }

  ReactDOM.createRoot(root).render(
    React.createElement(GraphiQL, {
      fetcher: fetcher,
      defaultQuery: root.getAttribute("data-default-query"),
      shouldPersistHeaders: false
    })
  );
});
`;
