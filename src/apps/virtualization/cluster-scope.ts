import type { RelatedFilter } from "../../schema/shapes.ts";
import { sql, type RawBuilder } from "kysely";

export type Scope = "region" | "sitegroup" | "site" | "location";

/**
 * The region, site group, site or location a cluster's scope puts it in, as SQL over the cluster
 * row under `c`: what NetBox caches as `_region`, `_site_group`, `_site` and `_location`. A site
 * scope implies the site's region and group; a location scope its site's too.
 */
export function clusterScopeSql(c: string, level: Scope): RawBuilder<unknown> {
  const [type, id] = [sql.ref(`${c}.scope_type`), sql.ref(`${c}.scope_id`)];
  const ofSite = (column: string, siteId: RawBuilder<unknown>) =>
    sql`(SELECT s.${sql.ref(column)} FROM dcim_site s WHERE s.id = ${siteId})`;
  const locationSite = sql`(SELECT l.site_id FROM dcim_location l WHERE l.id = ${id})`;
  if (level === "location") return sql`CASE ${type} WHEN 'dcim.location' THEN ${id} END`;
  if (level === "site") return sql`CASE ${type} WHEN 'dcim.site' THEN ${id} WHEN 'dcim.location' THEN ${locationSite} END`;
  const column = level === "region" ? "region_id" : "group_id";
  return sql`CASE ${type} WHEN ${`dcim.${level}`} THEN ${id} WHEN 'dcim.site' THEN ${ofSite(column, id)}
    WHEN 'dcim.location' THEN ${ofSite(column, locationSite)} END`;
}

/**
 * `name` and `name_id`: the rows (clusters, prefixes, wireless LANs: any model with a `scope`)
 * whose scope lies in the region, site group, site or location given (NetBox's cached `_region`,
 * `_site_group`, `_site`, `_location`); nested groups take their descendants.
 */
export function scopePlaceFilters(name: string, level: Scope): Record<string, RelatedFilter> {
  const target = `dcim.${level}`;
  const tree = level !== "site";
  const related = (t: string) => sql`SELECT ${clusterScopeSql(t, level)} AS id`;
  return { [name]: { target, tree, related }, [`${name}_id`]: { target, tree, byId: true, related } };
}
