import type { RelatedFilter } from "../../schema/shapes.ts";
import { sql } from "kysely";
import { f } from "../../schema/fields.ts";
import { defineModel } from "../../schema/model.ts";
import { comments, description } from "../../schema/common.ts";
import {
  AUTHENTICATION_ALGORITHM,
  AUTHENTICATION_METHOD,
  DH_GROUP,
  ENCRYPTION_ALGORITHM,
  IKE_MODE,
  IKE_VERSION,
  IPSEC_MODE,
} from "./choices.ts";

/** NetBox's `PositiveIntegerField`: from 0 to the largest 32-bit integer. */
const positive = (label: string, helpText: string) => f.integer({ nullable: true, min: 0, max: 2_147_483_647, label, helpText });

/**
 * The filters NetBox gives the other side of a set (`ike_policy` on proposals: the policies whose
 * `proposals` hold the row), by name and by id, read from the set's link table.
 */
function memberOf(name: string, target: string, table: string, owner: string, member: string): Record<string, RelatedFilter> {
  const related = (t: string) =>
    sql`SELECT ${sql.ref(owner)} AS id FROM ${sql.table(table)} WHERE ${sql.ref(member)} = ${sql.ref(`${t}.id`)}`;
  return { [name]: { target, related }, [`${name}_id`]: { target, byId: true, related } };
}

export const ikeProposal = defineModel({
  app: "vpn",
  name: "ikeproposal",
  verboseName: "IKE proposal",
  className: "IKEProposal",
  path: "ike-proposals",
  fields: {
    name: f.string({ maxLength: 100, unique: true }),
    description,
    authentication_method: f.choice(AUTHENTICATION_METHOD),
    encryption_algorithm: f.choice(ENCRYPTION_ALGORITHM),
    authentication_algorithm: f.choice(AUTHENTICATION_ALGORITHM, { nullable: true }),
    // Stored as `dh_group`: GROUP is an SQL keyword.
    group: f.choice(DH_GROUP, { helpText: "Diffie-Hellman group ID", column: "dh_group" }),
    sa_lifetime: positive("SA lifetime", "Security association lifetime (in seconds)"),
    comments,
  },
  brief: ["name", "description"],
  search: ["name", "description", "comments"],
  filters: memberOf("ike_policy", "vpn.ikepolicy", "vpn_ikepolicy_proposals", "ikepolicy_id", "ikeproposal_id"),
});

export const ikePolicy = defineModel({
  app: "vpn",
  name: "ikepolicy",
  verboseName: "IKE policy",
  className: "IKEPolicy",
  path: "ike-policies",
  fields: {
    name: f.string({ maxLength: 100, unique: true }),
    description,
    version: f.choice(IKE_VERSION, { default: 2 }),
    mode: f.choice(IKE_MODE, { nullable: true }),
    proposals: f.m2m(
      "vpn.ikeproposal",
      { table: "vpn_ikepolicy_proposals", source: "ikepolicy_id", target: "ikeproposal_id" },
      { filterName: "ike_proposal" },
    ),
    preshared_key: f.text({ label: "Pre-shared key" }),
    comments,
  },
  brief: ["name", "description"],
  search: ["name", "description", "comments"],
  hooks: {
    // NetBox's clean(): IKEv1 needs a mode, IKEv2 has none. A partial update keeps the stored side.
    prepareWrite: (_ctx, items) => {
      for (const { values, current, errors } of items) {
        const version = Number(values.version !== undefined ? values.version : (current?.version ?? 2));
        const mode = values.mode !== undefined ? values.mode : (current?.mode ?? null);
        if (version === 1 && !mode) errors.__all__ = ["Mode is required for selected IKE version"];
        if (version === 2 && mode) errors.__all__ = ["Mode cannot be used for selected IKE version"];
      }
    },
  },
});

export const ipsecProposal = defineModel({
  app: "vpn",
  name: "ipsecproposal",
  verboseName: "IPSec proposal",
  className: "IPSecProposal",
  path: "ipsec-proposals",
  fields: {
    name: f.string({ maxLength: 100, unique: true }),
    description,
    encryption_algorithm: f.choice(ENCRYPTION_ALGORITHM, { nullable: true, label: "Encryption" }),
    authentication_algorithm: f.choice(AUTHENTICATION_ALGORITHM, { nullable: true, label: "Authentication" }),
    sa_lifetime_seconds: positive("SA lifetime (seconds)", "Security association lifetime (seconds)"),
    sa_lifetime_data: positive("SA lifetime (KB)", "Security association lifetime (in kilobytes)"),
    comments,
  },
  brief: ["name", "description"],
  search: ["name", "description", "comments"],
  filters: memberOf("ipsec_policy", "vpn.ipsecpolicy", "vpn_ipsecpolicy_proposals", "ipsecpolicy_id", "ipsecproposal_id"),
  hooks: {
    // NetBox's clean(): a proposal names an encryption or an authentication algorithm, or both.
    prepareWrite: (_ctx, items) => {
      for (const { values, current, errors } of items) {
        const given = (name: string) => (values[name] !== undefined ? values[name] : (current?.[name] ?? null));
        if (!given("encryption_algorithm") && !given("authentication_algorithm"))
          errors.__all__ = ["Encryption and/or authentication algorithm must be defined"];
      }
    },
  },
});

export const ipsecPolicy = defineModel({
  app: "vpn",
  name: "ipsecpolicy",
  verboseName: "IPSec policy",
  className: "IPSecPolicy",
  path: "ipsec-policies",
  fields: {
    name: f.string({ maxLength: 100, unique: true }),
    description,
    proposals: f.m2m(
      "vpn.ipsecproposal",
      { table: "vpn_ipsecpolicy_proposals", source: "ipsecpolicy_id", target: "ipsecproposal_id" },
      { filterName: "ipsec_proposal" },
    ),
    pfs_group: f.choice(DH_GROUP, {
      nullable: true,
      label: "PFS group",
      helpText: "Diffie-Hellman group for Perfect Forward Secrecy",
    }),
    comments,
  },
  brief: ["name", "description"],
  search: ["name", "description", "comments"],
});

export const ipsecProfile = defineModel({
  app: "vpn",
  name: "ipsecprofile",
  verboseName: "IPSec profile",
  className: "IPSecProfile",
  path: "ipsec-profiles",
  fields: {
    name: f.string({ maxLength: 100, unique: true }),
    description,
    mode: f.choice(IPSEC_MODE),
    ike_policy: f.fk("vpn.ikepolicy", { onDelete: "protect", label: "IKE policy" }),
    ipsec_policy: f.fk("vpn.ipsecpolicy", { onDelete: "protect", label: "IPSec policy" }),
    comments,
  },
  brief: ["name", "description"],
  search: ["name", "description", "comments"],
});

export const cryptoModels = [ikeProposal, ikePolicy, ipsecProposal, ipsecPolicy, ipsecProfile];
