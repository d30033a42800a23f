import { html, type SafeHtml } from "./html.ts";

const span = (kind: string, text: string): SafeHtml => html`<span class="j-${kind}">${text}</span>`;

/**
 * A JSON value pretty-printed as markup, two spaces per level as `JSON.stringify(value, null, 2)`
 * prints it, with every string `isLink` accepts (a URL into this API) made a link. Everything is
 * escaped by `html`: a value is shown as the text it is, never read as markup.
 */
export function jsonMarkup(value: unknown, isLink: (text: string) => boolean, indent = ""): SafeHtml {
  if (value === null || value === undefined) return span("null", "null");
  if (typeof value === "string") {
    const text = JSON.stringify(value);
    return isLink(value) ? html`<a class="j-str" href="${value}">${text}</a>` : span("str", text);
  }
  if (typeof value === "number" || typeof value === "boolean")
    return span(typeof value === "number" ? "num" : "bool", JSON.stringify(value));
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return html`[]`;
    const items = value.map((item, i) => html`${inner}${jsonMarkup(item, isLink, inner)}${i < value.length - 1 ? "," : ""}\n`);
    return html`[\n${items}${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return html`{}`;
  const members = entries.map(
    ([key, item], i) =>
      html`${inner}${span("key", JSON.stringify(key))}: ${jsonMarkup(item, isLink, inner)}${i < entries.length - 1 ? "," : ""}\n`,
  );
  return html`{\n${members}${indent}}`;
}
