import { ApiError } from "../../schema/errors.ts";
import { json } from "../../lib/responses.ts";
import type { AppPath } from "../../schema/shapes.ts";
import { requireUser } from "../../engine/permissions.ts";

/*
 * `/api/extras/scripts/`: NetBox runs custom Python scripts there. This service runs no Python
 * code, so there are no scripts: the list is empty, any script is 404, and uploading or running
 * one is refused (405) saying so.
 */

const REFUSED = "This service runs no custom scripts (NetBox's are Python code): there is no script to upload or run.";

export const scriptsPath: AppPath = {
  app: "extras",
  path: "scripts",
  operations: {
    GET: {
      summary: "The custom scripts: always none here, as this service runs no Python scripts.",
      response: {
        type: "object",
        properties: { count: { type: "integer" }, next: {}, previous: {}, results: { type: "array", items: {} } },
      },
    },
  },
  item: {
    operations: { GET: { summary: "One custom script: never found here, as this service runs no Python scripts." } },
  },
  refusal: REFUSED,
  async handler(ctx, { key }) {
    requireUser(ctx);
    if (key !== null) throw ApiError.notFound();
    return json({ count: 0, next: null, previous: null, results: [] });
  },
};
