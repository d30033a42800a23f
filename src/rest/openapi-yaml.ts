import { stringify } from "yaml";

/** How long the YAML writer may hold the thread before it lets other requests run. */
const SLICE_MS = 8;

const OPTIONS = { aliasDuplicateObjects: false, lineWidth: 0, version: "1.1" } as const;

const isMapping = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length > 0;

/**
 * The document as YAML, written an operation or a component at a time with a pause between
 * slices: the whole document (4 MB) takes seconds to write, which must not stall the other
 * requests being answered. A mapping's YAML is its entries' YAML indented under its key, so the
 * slices join into the text one `stringify` of the whole would give. YAML 1.1, as PyYAML reads
 * it (yes/no/on/off stay strings).
 */
export async function openApiYaml(document: Record<string, unknown>): Promise<string> {
  const out: string[] = [];
  let since = performance.now();
  const write = async (key: string, value: unknown, indent: string, depth: number): Promise<void> => {
    if (depth < 3 && isMapping(value)) {
      out.push(indent + stringify({ [key]: 0 }, OPTIONS).replace(/ 0\n$/, "\n"));
      for (const [k, v] of Object.entries(value)) await write(k, v, `${indent}  `, depth + 1);
      return;
    }
    out.push(stringify({ [key]: value }, OPTIONS).replace(/^(?=.)/gm, indent));
    if (performance.now() - since > SLICE_MS) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      since = performance.now();
    }
  };
  for (const [key, value] of Object.entries(document)) await write(key, value, "", 0);
  return out.join("");
}
