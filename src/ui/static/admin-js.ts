/**
 * The webhook delivery admin's script: Retry and "Retry selected" call the API's retry endpoints
 * (`POST /api/extras/webhook-deliveries/<id>/retry/` and `.../retry/` with a list of ids), as a
 * script would, through `send` of the shared `app.js` (loaded first on every page), which adds
 * the session's CSRF token; retried runs show as queued.
 */
export const ADMIN_JS = `"use strict";
(function () {
  var API = "/api/extras/webhook-deliveries/";

  function say(text, isError) {
    var box = document.getElementById("admin-message");
    if (!box) return;
    box.textContent = text;
    box.className = isError ? "admin-message error" : "admin-message";
  }

  /** The API's error body as one line: {"detail": ...}, {"id": [...]}, or a list of those. */
  function problem(body, status) {
    if (!body) return "The request failed (HTTP " + status + ").";
    if (typeof body.detail === "string") return body.detail;
    var parts = [];
    (Array.isArray(body) ? body : [body]).forEach(function (item) {
      if (!item || typeof item !== "object") return;
      Object.keys(item).forEach(function (key) { parts = parts.concat(item[key]); });
    });
    return parts.length ? parts.join(" ") : "The request failed (HTTP " + status + ").";
  }

  /** Shows a run the API returned in its new state wherever the page shows it. */
  function show(delivery) {
    var id = String(delivery.id);
    document.querySelectorAll("[data-status-for='" + id + "']").forEach(function (el) {
      el.textContent = delivery.status.label;
      el.className = "status status-" + delivery.status.value;
    });
    document.querySelectorAll("[data-retry='" + id + "'], input.select-run[value='" + id + "']").forEach(function (el) {
      el.remove();
    });
  }

  function retry(ids, buttons) {
    var bulk = ids.length > 1 || buttons.bulk;
    buttons.list.forEach(function (b) { b.disabled = true; });
    var url = bulk ? API + "retry/" : API + ids[0] + "/retry/";
    send(url, "POST", bulk ? JSON.stringify(ids.map(function (id) { return { id: Number(id) }; })) : null).then(function (response) {
      return response.text().then(function (text) {
        var body = null;
        try { body = text ? JSON.parse(text) : null; } catch (e) { body = null; }
        if (!response.ok) throw new Error(problem(body, response.status));
        var runs = Array.isArray(body) ? body : [body];
        runs.forEach(show);
        say(runs.length === 1 ? "Delivery #" + runs[0].id + " is queued again." : runs.length + " deliveries are queued again.", false);
        updateSelection();
      });
    }).catch(function (error) {
      say(error.message, true);
    }).then(function () {
      buttons.list.forEach(function (b) { if (b.isConnected) b.disabled = false; });
      updateSelection();
    });
  }

  function selected() {
    return Array.prototype.map.call(document.querySelectorAll("input.select-run:checked"), function (box) { return box.value; });
  }

  function updateSelection() {
    var button = document.getElementById("retry-selected");
    if (button) button.disabled = selected().length === 0;
    var all = document.getElementById("select-all");
    if (all) all.checked = selected().length > 0 && selected().length === document.querySelectorAll("input.select-run").length;
  }

  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!(target instanceof HTMLElement)) return;
    var one = target.closest("button[data-retry]");
    if (one) return retry([one.getAttribute("data-retry")], { list: [one], bulk: false });
    if (target.id === "retry-selected") {
      var ids = selected();
      if (ids.length) retry(ids, { list: [target], bulk: true });
    }
  });

  document.addEventListener("change", function (event) {
    var target = event.target;
    if (!(target instanceof HTMLInputElement || target instanceof HTMLSelectElement)) return;
    if (target.id === "select-all") {
      document.querySelectorAll("input.select-run").forEach(function (box) { box.checked = target.checked; });
    }
    if (target.form && target.form.classList.contains("admin-filters") && target instanceof HTMLSelectElement) target.form.submit();
    updateSelection();
  });

  document.addEventListener("DOMContentLoaded", updateSelection);
})();
`;
