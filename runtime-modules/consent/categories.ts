import type { ConsentCategory } from "../../generator/config/bundle-config.js";

/** "Consent categories: performance, functional, marketing (plus program variants)." */
export const CATEGORIES = ["performance", "functional", "marketing", "programFunctional", "programMarketing"] as const;

/** "program categories use a program consent check and skip later checks" */
export function isProgramCategory(category: ConsentCategory): boolean {
  return category === "programFunctional" || category === "programMarketing";
}

/**
 * A tag's category as written by a config or a data-layer push: the config
 * keys ("programMarketing") or the spec's labels ("Program-Marketing",
 * "Performance"), any case. Anything else is the fallback: "default Marketing".
 */
export function normalizeCategory(value: unknown, fallback: ConsentCategory = "marketing"): ConsentCategory {
  if (typeof value !== "string") return fallback;
  const key = value.replace(/[\s_-]+/g, "").toLowerCase();
  for (const category of CATEGORIES) if (category.toLowerCase() === key) return category;
  return fallback;
}
