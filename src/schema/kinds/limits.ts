/** How deep JSON data may nest: SQLite's JSON functions stop at 1,000 levels, we stop well before. */
export const MAX_JSON_DEPTH = 64;
/**
 * How deep related objects nest inside each other (an IP address's assigned interface carries its
 * device: two levels). Deeper references are given by id, so no declaration can loop.
 */
export const MAX_NESTING = 3;
/** How deep a related object named by attributes may nest (`{"site": {"region": {"slug": ...}}}`). */
export const MAX_REF_DEPTH = 4;

/** The nesting depth of a JSON value, stopping as soon as it passes `limit`, without recursion. */
export function jsonDepth(value: unknown, limit: number): number {
  let level = [value];
  let depth = 0;
  while (level.length && depth <= limit) {
    const next: unknown[] = [];
    for (const x of level) if (x && typeof x === "object") next.push(...Object.values(x as object));
    if (!next.length && !level.some((x) => x && typeof x === "object")) break;
    depth++;
    level = next;
  }
  return depth;
}
