/**
 * The pages' shared script. Forms that change state send the CSRF token the session cookie
 * pairs with (cookie `csrftoken`, header `X-CSRFToken`), as the API asks of cookie sessions.
 * The browsable API's forms (`form.api-form`) send their JSON with the method of the button
 * pressed and show the answer as text, never as markup.
 */
export const APP_JS = `"use strict";
function csrfToken() {
  var match = document.cookie.match(/(?:^|; )csrftoken=([^;]*)/);
  return match ? decodeURIComponent(match[1]) : "";
}

function send(url, method, body) {
  var headers = { "Accept": "application/json", "X-CSRFToken": csrfToken() };
  if (body !== null) headers["Content-Type"] = "application/json";
  return fetch(url, { method: method, credentials: "same-origin", headers: headers, body: body });
}

/** A URL of this site, or null: the pages navigate only here. */
function sameSite(url) {
  try {
    var parsed = new URL(url, window.location.href);
    return parsed.origin === window.location.origin ? parsed.pathname + parsed.search : null;
  } catch (e) {
    return null;
  }
}

function show(form, status, text) {
  var out = form.querySelector(".api-result");
  if (!out) return;
  out.hidden = false;
  out.className = "api-result " + (status >= 200 && status < 300 ? "ok" : "failed");
  out.textContent = text;
}

function submitApiForm(form, method) {
  var textarea = form.querySelector("textarea");
  var body = method === "DELETE" || !textarea ? null : textarea.value;
  var buttons = form.querySelectorAll("button");
  buttons.forEach(function (b) { b.disabled = true; });
  show(form, 200, method + " " + form.dataset.url + " …");
  return send(form.dataset.url, method, body)
    .then(function (response) {
      return response.text().then(function (text) {
        var data = null;
        try { data = text ? JSON.parse(text) : null; } catch (e) { data = text; }
        var line = "HTTP " + response.status + " " + response.statusText;
        show(form, response.status, data === null ? line : line + "\\n\\n" + JSON.stringify(data, null, 2));
        if (!response.ok) return;
        if (method === "DELETE") {
          window.location.assign(sameSite(form.dataset.then) || "/api/");
        } else if (method === "POST" && data && !Array.isArray(data) && typeof data.url === "string" && sameSite(data.url)) {
          window.location.assign(sameSite(data.url));
        } else {
          window.location.reload();
        }
      });
    })
    .catch(function (error) { show(form, 0, "The request failed: " + error.message); })
    .finally(function () { buttons.forEach(function (b) { b.disabled = false; }); });
}

document.addEventListener("submit", function (event) {
  var form = event.target;
  if (!(form instanceof HTMLFormElement)) return;
  if (form.getAttribute("action") === "/logout/") {
    event.preventDefault();
    send("/logout/", "POST", null).then(function () { window.location.assign("/login/"); });
  } else if (form.classList.contains("api-form")) {
    event.preventDefault();
    var submitter = event.submitter;
    submitApiForm(form, submitter && submitter.value ? submitter.value : "POST");
  }
});
`;
