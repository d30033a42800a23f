import type { FieldOptions, RelatedFilter } from "../../schema/shapes.ts";
import { sql } from "kysely";
import { f } from "../../schema/fields.ts";

/**
 * What the wireless app adds to interfaces, spread into their declaration so each addition is one
 * line there: the link an interface is an end of, and the wireless LANs it serves.
 */

/** The wireless link whose either end is the interface row under `t`. */
const linkOf = (t: string) =>
  sql`(SELECT w.id FROM wireless_wirelesslink w WHERE w.interface_a_id = ${sql.ref(`${t}.id`)} OR w.interface_b_id = ${sql.ref(`${t}.id`)}
    ORDER BY w.id LIMIT 1)`;

// Function declarations, not arrow constants: the interface model calls them while this module
// may still be loading.
export function interfaceWirelessFields(): Record<string, FieldOptions> {
  return {
    // NetBox keeps the link on the interface as a column its signals set; here the link's own
    // two ends say it, so it can never disagree with them.
    wireless_link: f.related("wireless.wirelesslink", linkOf, { nestedDisplayUrl: true }),
    wireless_lans: f.m2m(
      "wireless.wirelesslan",
      { table: "dcim_interface_wireless_lans", source: "interface_id", target: "wirelesslan_id" },
      { filterName: "wireless_lan", label: "Wireless LANs" },
    ),
  };
}

/** The interface filters by wireless link (`wireless_link_id`); `wireless_lan_id` comes with the set. */
export function interfaceWirelessFilters(): Record<string, RelatedFilter> {
  return {
    wireless_link_id: {
      target: "wireless.wirelesslink",
      byId: true,
      related: (t) => sql`SELECT w.id FROM wireless_wirelesslink w
        WHERE w.interface_a_id = ${sql.ref(`${t}.id`)} OR w.interface_b_id = ${sql.ref(`${t}.id`)}`,
    },
  };
}
