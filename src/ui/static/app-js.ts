/**
 * The pages' shared script. Forms that change state send the CSRF token the session cookie
 * pairs with (cookie `csrftoken`, header `X-CSRFToken`), as the API asks of cookie sessions.
 */
export const APP_JS = `"use strict";
function csrfToken() {
  var match = document.cookie.match(/(?:^|; )csrftoken=([^;]*)/);
  return match ? decodeURIComponent(match[1]) : "";
}
document.addEventListener("submit", function (event) {
  var form = event.target;
  if (!(form instanceof HTMLFormElement) || form.getAttribute("action") !== "/logout/") return;
  event.preventDefault();
  fetch("/logout/", { method: "POST", credentials: "same-origin", headers: { "X-CSRFToken": csrfToken() } })
    .then(function () { window.location.assign("/login/"); });
});
`;
