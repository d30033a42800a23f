import { KINDS } from "./kinds/index.ts";
import { adopt, APPS, type AppName, type Model } from "./model.ts";

/** The frozen set of models the service serves, with the lookups the engine needs. */
export interface Registry {
  readonly models: readonly Model[];
  /** A model by its API path: `("dcim", "sites")`. */
  byPath(app: string, path: string): Model | undefined;
  /** A model by `app.model`. */
  byObjectType(objectType: string): Model | undefined;
  /** A model by `app.model` that must be there (a rule naming a model of its own app). */
  get(objectType: string): Model;
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
      refs = models.flatMap((m) =>
        m.fields.filter((x) => KINDS[x.kind].deletion?.pointsAt(x, target)).map((field) => ({ model: m, field })),
      );
      references.set(target, refs);
    }
    return refs;
  };
  const registry: Registry = Object.freeze({
    models: Object.freeze([...models]),
    byPath: (app: string, path: string) => byPath.get(`${app}/${path}`),
    byObjectType: (t: string) => byType.get(t),
    get: (t: string) => {
      const model = byType.get(t);
      if (!model) throw new Error(`${t} is not registered`);
      return model;
    },
    app: (a: AppName) => apps.get(a) ?? [],
    referencesTo,
  });
  for (const model of models) adopt(model, registry);
  return registry;
}
