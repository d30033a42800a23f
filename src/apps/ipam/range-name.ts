import { sql } from "kysely";

/**
 * An IP range's name as NetBox writes it: the leading groups both ends share, once, then where
 * each end differs (`10.0.7.200-210/24`, `10.0.0.0-3.255/22`, `2001:db8::10-1f/64`).
 */
export function ipRangeName(start: string, end: string): string {
  const [from, length] = start.split("/");
  const to = end.split("/")[0];
  const separator = from.includes(":") ? ":" : ".";
  const [a, b] = [from.split(separator), to.split(separator)];
  let shared = 0;
  while (shared < a.length - 1 && a[shared] === b[shared]) shared++;
  const head = a.slice(0, shared).join(separator);
  const rest = (chunks: string[]) => chunks.slice(shared).join(separator);
  return `${head}${shared ? separator : ""}${rest(a)}-${rest(b)}/${length}`;
}

/**
 * The same name in SQL, for nested objects and change records, where no code runs on the row:
 * exact when the ends differ in their last group only (the common case); otherwise both ends in
 * full. Top-level objects take `ipRangeName` (the model's `represent` hook).
 */
export function ipRangeNameSql(table: string) {
  const address = (column: string) => sql`substr(${sql.ref(`${table}.${column}`)}, 1, instr(${sql.ref(`${table}.${column}`)}, '/') - 1)`;
  // rtrim by every character but the separators leaves the address up to its last separator.
  const head = (a: ReturnType<typeof address>) => sql`rtrim(${a}, replace(replace(${a}, '.', ''), ':', ''))`;
  const [start, end] = [address("start_address"), address("end_address")];
  const length = sql`substr(${sql.ref(`${table}.start_address`)}, instr(${sql.ref(`${table}.start_address`)}, '/'))`;
  return sql`CASE WHEN ${head(start)} = ${head(end)} THEN ${start} || '-' || substr(${end}, length(${head(end)}) + 1) || ${length}
    ELSE ${start} || '-' || ${end} || ${length} END`;
}
