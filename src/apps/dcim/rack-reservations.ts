import { sql } from "kysely";
import { f } from "../../schema/fields.ts";
import { defineModel } from "../../schema/model.ts";
import { comments, siteTreeFilters } from "../../schema/common.ts";
import { rackDisplay } from "./racks.ts";
import { rackReservationHooks } from "./placement.ts";

// Kept apart from the other rack models: its user relation brings in the users app, which only
// the registry may load (its token routes reach back into the registry).

/** Units as `json_each` rows of a reservation under `t`: does any equal one of `values`? */
const reservesUnit = (values: readonly string[], t: string) => {
  const units = values.filter((v) => /^\d{1,5}$/.test(v)).map(Number);
  return sql`EXISTS (SELECT 1 FROM json_each(${sql.ref(`${t}.units`)}) WHERE value IN (SELECT value FROM json_each(${JSON.stringify(units)})))`;
};

export const rackReservation = defineModel({
  app: "dcim",
  name: "rackreservation",
  verboseName: "rack reservation",
  fields: {
    rack: f.fk("dcim.rack", { onDelete: "cascade" }),
    units: f.integerList({ min: 0, max: 32767 }),
    user: f.fk("users.user", { onDelete: "protect" }),
    tenant: f.fk("tenancy.tenant", { nullable: true, onDelete: "protect" }),
    description: f.string({ maxLength: 200 }),
    comments,
  },
  brief: ["user", "description", "units"],
  display: (t) => sql`'Reservation for rack ' || (SELECT ${rackDisplay("rr")} FROM dcim_rack rr WHERE rr.id = ${sql.ref(`${t}.rack_id`)})`,
  search: ["description", "comments"],
  ordering: ["created", "id"],
  filters: {
    site: "rack__site",
    site_id: "rack__site__id",
    ...siteTreeFilters("rack__site"),
    location: { path: "rack__location", tree: true },
    location_id: { path: "rack__location__id", tree: true },
    unit: { sql: reservesUnit },
  },
  hooks: rackReservationHooks(() => rackReservation),
});

export const rackReservationModels = [rackReservation];
