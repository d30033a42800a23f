import { sql } from "kysely";
import { f } from "../../schema/fields.ts";
import { defineModel } from "../../schema/model.ts";
import { description } from "../../schema/common.ts";

/*
 * VLAN translation (NetBox 4.2): a policy is a named set of rules, each mapping a local VID to a
 * remote one; an interface (of a device or a VM) may apply one policy. NetBox's serializers of
 * both leave out the tags, custom fields and timestamps their models carry (and filter by);
 * here they are shown, as on every other model that has them.
 */

export const vlanTranslationPolicy = defineModel({
  app: "ipam",
  name: "vlantranslationpolicy",
  verboseName: "VLAN translation policy",
  className: "VLANTranslationPolicy",
  path: "vlan-translation-policies",
  fields: {
    name: f.string({ maxLength: 100, unique: true }),
    description,
    rules: f.reverseList("ipam.vlantranslationrule", "ipam_vlantranslationrule", "policy_id"),
  },
  brief: ["name", "description"],
  search: ["name", "description"],
});

export const vlanTranslationRule = defineModel({
  app: "ipam",
  name: "vlantranslationrule",
  verboseName: "VLAN translation rule",
  className: "VLANTranslationRule",
  fields: {
    // Read as the bare id, as NetBox's serializer gives it.
    policy: f.fk("ipam.vlantranslationpolicy", { onDelete: "cascade", flat: true }),
    local_vid: f.integer({ required: true, min: 1, max: 4094, label: "Local VLAN ID", helpText: "Numeric VLAN ID (1-4094)" }),
    remote_vid: f.integer({ required: true, min: 1, max: 4094, label: "Remote VLAN ID", helpText: "Numeric VLAN ID (1-4094)" }),
    description,
  },
  uniqueTogether: [
    { fields: ["policy", "local_vid"], message: "VLAN translation rule with this Policy and Local VLAN ID already exists." },
    { fields: ["policy", "remote_vid"], message: "VLAN translation rule with this Policy and Remote VLAN ID already exists." },
  ],
  brief: ["local_vid", "remote_vid", "description"],
  display: (t) => sql`${sql.ref(`${t}.local_vid`)} || ' -> ' || ${sql.ref(`${t}.remote_vid`)}`,
  search: ["description"],
  ordering: ["policy", "local_vid"],
});

export const vlanTranslationModels = [vlanTranslationPolicy, vlanTranslationRule];
