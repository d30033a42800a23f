import { APPS, type AppName, type Model, type Registry } from "./shapes.ts";
import { KINDS } from "./kinds/index.ts";
import { adopt } from "./model.ts";
import { byCodeUnits } from "../lib/code-order.ts";

export function createRegistry(models: readonly Model[]): Registry {
  const paths = models.flatMap(
    (m) => [[`${m.app}/${m.path}`, m], ...(m.aliases ?? []).map((a) => [`${a.app}/${a.path}`, m])] as [string, Model][],
  );
  const byPath = new Map(paths);
  const byType = new Map(models.map((m) => [m.objectType, m]));
  if (byPath.size !== paths.length || byType.size !== models.length) throw new Error("duplicate model path or type");
  const apps = new Map(APPS.map((a) => [a, models.filter((m) => m.app === a).sort((x, y) => byCodeUnits(x.path, y.path))]));
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
