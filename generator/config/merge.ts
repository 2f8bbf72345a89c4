/**
 * The layers of one site x environment (organisation, organisation
 * environment, site, site environment) merged into one settings object, and
 * the picker that tells which file and key path wrote a path of it.
 */
import { mergeInto } from "../../runtime-modules/core/merge.js";
import { hasPath, type YamlSource } from "./yaml-source.js";

type Plain = Record<string, unknown>;
const isPlain = (v: unknown): v is Plain => typeof v === "object" && v !== null && !Array.isArray(v);

/** Deep merge of layers: objects merge key by key, everything else (lists too) is replaced (the runtime's guarded merge, runtime-modules/core/merge.ts). */
export function mergeLayers(...layers: unknown[]): Plain {
  return layers.reduce<Plain>((out, layer) => mergeInto(out, layer), {});
}

export type Layer = { source: YamlSource; prefix: PropertyKey[]; data: unknown };

/**
 * Merges the four layers of one site x environment. Objects merge key by
 * key; lists and values are replaced; except that rules and disabledRules
 * add up across layers and a data element replaces the same-named one whole.
 * The picker maps a path of the merged settings to the file and key path
 * that wrote it.
 */
export function mergeSettings(layers: Layer[]) {
  const SPECIAL = ["rules", "disabledRules", "dataElements"];
  const plain = layers.map((l) => Object.fromEntries(Object.entries((l.data ?? {}) as Plain).filter(([k]) => !SPECIAL.includes(k))));
  const merged = withoutDisabledModules(mergeLayers(...plain));
  const origins: Record<string, Array<{ layer: Layer; index: number }>> = { rules: [], disabledRules: [] };
  for (const key of ["rules", "disabledRules"]) {
    const all: unknown[] = [];
    let invalid: unknown;
    for (const layer of layers) {
      const list = (layer.data as Plain | undefined)?.[key];
      if (Array.isArray(list)) {
        list.forEach((item, index) => {
          all.push(item);
          origins[key].push({ layer, index });
        });
      } else if (list !== undefined) invalid = list; // not a list: the schema reports it
    }
    merged[key] = invalid ?? all;
  }
  const elementOrigin: Record<string, Layer> = {};
  const elements: Plain = {};
  for (const layer of layers) {
    const own = (layer.data as Plain | undefined)?.dataElements;
    if (!isPlain(own)) continue;
    for (const [name, element] of Object.entries(own)) {
      elements[name] = element;
      elementOrigin[name] = layer;
    }
  }
  merged.dataElements = elements;
  const pick = (
    path: ReadonlyArray<PropertyKey>,
    missing = false,
  ): { source: YamlSource; prefix: ReadonlyArray<PropertyKey>; path?: ReadonlyArray<PropertyKey> } => {
    const [head, index, ...rest] = path;
    if ((head === "rules" || head === "disabledRules") && typeof index === "number" && origins[head][index]) {
      const { layer, index: local } = origins[head][index];
      return { source: layer.source, prefix: layer.prefix, path: [...layer.prefix, head, local, ...rest] };
    }
    if (head === "dataElements" && typeof index === "string" && elementOrigin[index]) {
      const layer = elementOrigin[index];
      return { source: layer.source, prefix: layer.prefix, path: [...layer.prefix, ...path] };
    }
    // A missing key belongs where its mapping is first written without it (the site's
    // modules.chat, not each environment's override of it): one diagnostic, not one per layer.
    if (missing) {
      for (let len = path.length - 1; len >= 1; len--) {
        const has = (l: Layer, n: number) => hasPath(l.source, [...l.prefix, ...path.slice(0, n)]);
        const layer = layers.find((l) => has(l, len) && !has(l, len + 1));
        if (layer) return layer;
        if (layers.some((l) => has(l, len))) break;
      }
    }
    for (let len = path.length; len >= 1; len--) {
      for (let i = layers.length - 1; i >= 0; i--) {
        if (hasPath(layers[i].source, [...layers[i].prefix, ...path.slice(0, len)])) return layers[i];
      }
    }
    // Set nowhere: a required organisation-wide default is missing.
    return layers[0];
  };
  return { merged, pick };
}

/** A module switched off (enabled: false) needs no other settings. */
function withoutDisabledModules(settings: Plain): Plain {
  const modules = settings.modules;
  if (!isPlain(modules)) return settings;
  const kept: Plain = {};
  for (const [name, value] of Object.entries(modules)) if (!(isPlain(value) && value.enabled === false)) kept[name] = value;
  return { ...settings, modules: kept };
}
