import { KINDS } from "./kinds.ts";
import { APPS, setModelLookup, setRegisteredModels, type AppName, type Model } from "./model.ts";
import { tenancyModels } from "../apps/tenancy/tenancy.ts";
import { dcimModels } from "../apps/dcim/organization.ts";
import { deviceModels } from "../apps/dcim/devices.ts";
import { componentModels } from "../apps/dcim/components.ts";
import { rackModels } from "../apps/dcim/racks.ts";
import { rackReservationModels } from "../apps/dcim/rack-reservations.ts";
import { cableModels } from "../apps/dcim/cables.ts";
import { moduleModels } from "../apps/dcim/modules.ts";
import { templateModels } from "../apps/dcim/templates.ts";
import { virtualizationModels } from "../apps/virtualization/virtualization.ts";
import { extrasModels } from "../apps/extras/extras.ts";
import { configContextModels } from "../apps/extras/config-contexts.ts";
import { usersModels } from "../apps/users/users.ts";
import { coreModels } from "../apps/core/core.ts";
import { eventModels } from "../apps/extras/events.ts";
import { circuitsModels } from "../apps/circuits/circuits.ts";
import { contactModels } from "../apps/tenancy/contacts.ts";
import { journalModels } from "../apps/extras/journal.ts";
import { ipamModels } from "../apps/ipam/addressing.ts";
import { vlanModels } from "../apps/ipam/vlans.ts";
import { serviceModels } from "../apps/ipam/services.ts";

/** The frozen set of models the service serves, with the lookups the engine needs. */
export interface Registry {
  readonly models: readonly Model[];
  /** A model by its API path: `("dcim", "sites")`. */
  byPath(app: string, path: string): Model | undefined;
  /** A model by `app.model`. */
  byObjectType(objectType: string): Model | undefined;
  /** The models of one app, sorted by path, as the app root lists them. */
  app(app: AppName): readonly Model[];
  /** Every field in the registry that can point at `model`: its fks and the generic relations that may name it. */
  referencesTo(model: Model): readonly { model: Model; field: Model["fields"][number] }[];
}

export function createRegistry(models: readonly Model[]): Registry {
  const paths = models.flatMap(
    (m) => [[`${m.app}/${m.path}`, m], ...(m.aliases ?? []).map((a) => [`${a.app}/${a.path}`, m])] as [string, Model][],
  );
  const byPath = new Map(paths);
  const byType = new Map(models.map((m) => [m.objectType, m]));
  if (byPath.size !== paths.length || byType.size !== models.length) throw new Error("duplicate model path or type");
  const apps = new Map(APPS.map((a) => [a, models.filter((m) => m.app === a).sort((x, y) => x.path.localeCompare(y.path))]));
  const references = new Map<Model, { model: Model; field: Model["fields"][number] }[]>();
  const referencesTo = (target: Model) => {
    let refs = references.get(target);
    if (!refs) {
      refs = models.flatMap((m) => m.fields.filter((x) => KINDS[x.kind].pointsAt?.(x, target)).map((field) => ({ model: m, field })));
      references.set(target, refs);
    }
    return refs;
  };
  return Object.freeze({
    models: Object.freeze([...models]),
    byPath: (app: string, path: string) => byPath.get(`${app}/${path}`),
    byObjectType: (t: string) => byType.get(t),
    app: (a: AppName) => apps.get(a) ?? [],
    referencesTo,
  });
}

/**
 * Every model, once. Adding a model: declare it in its app file and add it to that app's list.
 * Built on first use, not at import: model files and the engine code they use import each other,
 * so whichever module loads first, every model is declared by the time anything asks.
 */
let built: Registry | null = null;
const build = (): Registry =>
  (built ??= createRegistry([
    ...tenancyModels,
    ...dcimModels,
    ...deviceModels,
    ...componentModels,
    ...rackModels,
    ...rackReservationModels,
    ...cableModels,
    ...moduleModels,
    ...templateModels,
    ...extrasModels,
    ...configContextModels,
    ...usersModels,
    ...virtualizationModels,
    ...coreModels,
    ...eventModels,
    ...circuitsModels,
    ...contactModels,
    ...journalModels,
    ...ipamModels,
    ...vlanModels,
    ...serviceModels,
  ]));

export const registry: Registry = Object.freeze({
  get models() {
    return build().models;
  },
  byPath: (app: string, path: string) => build().byPath(app, path),
  byObjectType: (t: string) => build().byObjectType(t),
  app: (a: AppName) => build().app(a),
  referencesTo: (model: Model) => build().referencesTo(model),
});

setRegisteredModels(() => registry.models);
setModelLookup((t) => registry.byObjectType(t));
