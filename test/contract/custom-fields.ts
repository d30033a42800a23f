import type { ContractSpec } from "../support/contract.ts";
import { make } from "./fixtures.ts";

/** Contract rows of custom fields and their choice sets. */
export const specs: ContractSpec[] = [
  {
    objectType: "extras.customfieldchoiceset",
    create: () =>
      [1, 2, 3, 4, 5].map((i) => ({
        name: `Colours ${i}`,
        description: `set ${i}`,
        extra_choices: [
          ["red", "Red"],
          ["blue", `Blue ${i}`],
        ],
        ...(i === 2 ? { base_choices: "ISO_3166" } : {}),
      })),
    patch: {
      description: "changed",
      extra_choices: [
        ["green", "Green"],
        ["red", "Red"],
      ],
    },
    bulkPatch: { description: "bulk" },
    invalid: { body: { name: "Bad", extra_choices: [["only one"]] }, field: "extra_choices" },
  },
  {
    objectType: "extras.customfield",
    fixtures: async (api) => ({
      choices: await make(api, "/api/extras/custom-field-choice-sets/", {
        name: "Tiers",
        extra_choices: [
          ["gold", "Gold"],
          ["silver", "Silver"],
        ],
      }),
    }),
    create: (fx) => [
      { name: "cf_one", type: "select", object_types: ["dcim.site", "dcim.device"], choice_set: fx.choices, default: "gold", label: "One" },
      { name: "cf_two", type: "object", object_types: ["dcim.device"], related_object_type: "dcim.site", description: "where" },
      { name: "cf_three", type: "text", object_types: ["tenancy.tenant"], validation_regex: "^[a-z]+$", group_name: "Text" },
      // PUT replaces the first with this one; what it leaves out (the choice set) must suit it.
      { name: "cf_four", type: "multiselect", object_types: ["dcim.site"], choice_set: fx.choices, default: ["silver"], required: true },
      {
        name: "cf_five",
        type: "integer",
        object_types: ["dcim.interface"],
        validation_minimum: 1,
        validation_maximum: 9,
        filter_logic: "exact",
        weight: 10,
      },
    ],
    patch: { description: "changed", weight: 50, ui_visible: "if-set" },
    bulkPatch: { group_name: "bulk" },
    invalid: { body: { name: "Bad Name", object_types: ["dcim.site"] }, field: "name" },
  },
];
