import type { Model } from "../../schema/shapes.ts";
import type { ModelHooks } from "../../schema/hooks.ts";
import { constraintCondition } from "../../engine/filters.ts";

/**
 * An object permission is checked when it is saved, so a mistake shows at once and not as
 * access silently granted or refused later: the object types must exist, the actions be named,
 * and every constraint key compile for every object type it applies to.
 */
/** `self` is the permission model, whose registry holds the object types permissions name. */
export const permissionHooks = (self: () => Model): ModelHooks => ({
  prepareWrite(_ctx, items) {
    for (const { values, current, errors } of items) {
      const types = (values.object_types ?? JSON.parse(String(current?.object_types ?? "[]"))) as string[];
      const actions = (values.actions ?? JSON.parse(String(current?.actions ?? "[]"))) as string[];
      const unknown = types.filter((t) => !self().registry.byObjectType(t));
      if (types.length === 0) errors.object_types = ["This list may not be empty."];
      else if (unknown.length) errors.object_types = unknown.map((t) => `Invalid object type: ${t}`);
      if (actions.length === 0) errors.actions = ["This list may not be empty."];
      else if (actions.some((a) => !/^[a-z_]{1,30}$/.test(a)))
        errors.actions = ["Actions are lower-case names such as view, add, change, delete."];

      const constraints = values.constraints === undefined ? JSON.parse(String(current?.constraints ?? "null")) : values.constraints;
      if (constraints === null || errors.object_types) continue;
      const list = Array.isArray(constraints) ? constraints : [constraints];
      if (!list.every((c) => c && typeof c === "object" && !Array.isArray(c))) {
        errors.constraints = ["Constraints must be a JSON object or a list of JSON objects."];
        continue;
      }
      const problems = types.flatMap((type) => {
        const model = self().registry.get(type);
        return list.flatMap((c: Record<string, unknown>) => {
          try {
            constraintCondition(model, c, 0);
            return [];
          } catch (error) {
            return [`Invalid filter for ${model.className}: ${(error as Error).message}`];
          }
        });
      });
      if (problems.length) errors.constraints = problems;
    }
  },
});
