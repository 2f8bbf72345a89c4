/**
 * The `tags:` section of one site x environment (issue 20): the checks a
 * schema alone cannot make (a source for this environment, one kind, one
 * family, a lifecycle not before its category's, a category the site's
 * consent setup can grant), and the resolved tags each module carries.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { formatPath } from "../diagnostics/diagnostic.js";
import { DIAGNOSTICS, type DiagnosticBody } from "../diagnostics/diagnostics.js";
import type { ConsentCategory, EnvName, Settings } from "./schema.js";
import { TAG_FAMILIES, TAG_LIFECYCLES, type ResolvedTag, type TagDeclaration, type TagFamily } from "./schemas/tags.js";
import type { SourcePicker } from "./issues.js";
import { diagnosticAtOffset, offsetOf } from "./yaml-source.js";

type Path = PropertyKey[];
const KINDS = ["script", "pixel", "iframe"] as const;

/** Section 9: "Performance tags ... load at extensions or page top; functional and program tags ... and marketing tags ... at DOM ready." */
export function earliestTagLifecycle(category: ConsentCategory): (typeof TAG_LIFECYCLES)[number] {
  return category === "performance" ? "pageTop" : "domReady";
}

/** Why a non-internal site's consent setup can never grant `category`, or undefined when it can. */
export function neverGrantedWhy(settings: Pick<Settings, "consent">, internal: boolean, category: ConsentCategory): string | undefined {
  if (internal) return undefined;
  const { banner, groups } = settings.consent;
  if (!banner.scriptSrc || !banner.domainScript) return "no consent banner: consent.banner needs scriptSrc and domainScript";
  if (!groups[category].trim()) return `consent.groups.${category} is empty`;
  if (!groups.required.trim()) return "consent.groups.required is empty";
  return undefined;
}

const familiesOf = (tag: TagDeclaration): TagFamily[] => TAG_FAMILIES.filter((f) => tag[f] !== undefined);

export interface TagCheckInput {
  settings: Settings;
  env: EnvName;
  internal: boolean;
  pick: SourcePicker;
  where: string;
}

export function checkTags({ settings, env, internal, pick, where }: TagCheckInput): Diagnostic[] {
  const out: Diagnostic[] = [];
  const report = (body: DiagnosticBody, path: Path, prefer: "key" | "value" = "value") => {
    const picked = pick(path);
    const full = picked.path ?? [...picked.prefix, ...path];
    out.push(diagnosticAtOffset(picked.source, { ...body, message: `${body.message} (in ${where})` }, offsetOf(picked.source, full, prefer), formatPath(full)));
  };
  for (const name of ["tags", ...TAG_FAMILIES] as const) if (settings.modules[name]) report(DIAGNOSTICS.tagModuleByHand(name), ["modules", name], "key");
  for (const [code, tag] of Object.entries(settings.tags)) {
    if (!tag.enabled) continue;
    const base: Path = ["tags", code];
    const kinds = KINDS.filter((k) => tag[k] !== undefined);
    if (kinds.length > 1) report(DIAGNOSTICS.tagTwoSources(code, kinds), [...base, kinds[1]], "key");
    else if (!kinds.length || !(tag[kinds[0]]![env] ?? tag[kinds[0]]!.default))
      report(DIAGNOSTICS.tagWithoutSource(code, env), kinds.length ? [...base, kinds[0]] : base, "key");
    const families = familiesOf(tag);
    if (families.length > 1) report(DIAGNOSTICS.tagTwoFamilies(code, families), [...base, families[1]], "key");
    const category = tag.category ?? settings.consent.defaultCategory;
    const earliest = earliestTagLifecycle(category);
    if (tag.lifecycle && TAG_LIFECYCLES.indexOf(tag.lifecycle) < TAG_LIFECYCLES.indexOf(earliest))
      report(DIAGNOSTICS.tagTooEarly(code, tag.lifecycle, category, earliest), [...base, "lifecycle"]);
    const why = neverGrantedWhy(settings, internal, category);
    if (why) report(DIAGNOSTICS.tagNeverGranted(code, category, why), tag.category ? [...base, "category"] : base, tag.category ? "value" : "key");
  }
  return out;
}

/** The family a tag declares settings of, if any. */
export function familyOfTag(tag: Pick<TagDeclaration, TagFamily>): TagFamily | undefined {
  return TAG_FAMILIES.find((f) => tag[f] !== undefined);
}

/**
 * The enabled tags of a checked site x environment, as plain data with only
 * what is set (this environment's URL; no empty lists or objects): what the
 * bundle inlines, for module `tags`; and the families they need. Sorted by
 * code, so the bytes do not depend on layer order.
 */
export function resolveTags(settings: Pick<Settings, "tags" | "consent">, env: EnvName): { tags: ResolvedTag[]; families: TagFamily[] } {
  const tags: ResolvedTag[] = [];
  const families: TagFamily[] = [];
  for (const code of Object.keys(settings.tags).sort()) {
    const tag = settings.tags[code];
    if (!tag.enabled) continue;
    const kind = KINDS.find((k) => tag[k] !== undefined)!;
    const category = tag.category ?? settings.consent.defaultCategory;
    const resolved: ResolvedTag = {
      code,
      category,
      lifecycle: tag.lifecycle ?? earliestTagLifecycle(category),
      kind,
      src: (tag[kind]![env] ?? tag[kind]!.default)!,
    };
    const family = familyOfTag(tag);
    if (family) {
      resolved.family = family;
      (resolved as Record<string, unknown>)[family] = tag[family];
      if (!families.includes(family)) families.push(family);
    }
    // The monitoring family is sampled unless it says otherwise (docs/identity.md, "Sampling").
    if (tag.sampled ?? family === "rum") resolved.sampled = true;
    if (tag.queue) resolved.queue = tag.queue;
    if (tag.excludeAppIds.length) resolved.excludeAppIds = tag.excludeAppIds;
    if (Object.keys(tag.attributes).length) resolved.attributes = tag.attributes;
    if (tag.settingsGlobal) resolved.settingsGlobal = tag.settingsGlobal;
    // The settings reach the page through settingsGlobal or through the tag's family (push notifications' init).
    if (tag.settingsGlobal || (family && Object.keys(tag.settings).length)) {
      resolved.settings = tag.settings;
      if (Object.keys(tag.hostSettings).length) resolved.hostSettings = tag.hostSettings;
    }
    tags.push(resolved);
  }
  return { tags, families: families.sort() };
}
