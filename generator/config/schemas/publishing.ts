/**
 * Organisation-wide publishing settings (sites/_org.yaml `publishing:`):
 * where the published prefix is served (the CDN base URL, per environment)
 * and the cache headers of the short-lived objects. Used by `sitetags
 * publish`, `rollback`, `promote` and `embed`; never inlined into a bundle
 * (the link step inlines the resolved settings of a site x environment, and
 * these are no setting of a site).
 */
import { z } from "zod";
import { ENV_NAMES } from "../constants.js";
import { HttpsUrl } from "../primitives.js";

/** Hashed files are content-addressed: cached for a year, never revalidated. Not configurable. */
export const IMMUTABLE_CACHE_CONTROL = "public, max-age=31536000, immutable";
export const DEFAULT_ALIAS_CACHE_CONTROL = "public, max-age=300";
export const DEFAULT_MANIFEST_CACHE_CONTROL = "no-cache";

const CacheControl = z.string().regex(/^[a-z-]+(=\d+)?(, ?[a-z-]+(=\d+)?)*$/, { message: 'must be Cache-Control directives such as "public, max-age=300"' });

const BaseUrl = HttpsUrl.refine((u) => u.endsWith("/"), { message: "must end with /" });

export const PublishingSchema = z
  .strictObject({
    baseUrl: BaseUrl.optional().describe(
      "Public URL the published prefix is served under (the CDN), ending in /. Default: https://tags.APEX/ (APEX: apexDomain).",
    ),
    envs: z
      .strictObject(
        Object.fromEntries(ENV_NAMES.map((env) => [env, z.strictObject({ baseUrl: BaseUrl }).optional()])) as Record<
          (typeof ENV_NAMES)[number],
          z.ZodOptional<z.ZodObject<{ baseUrl: typeof BaseUrl }>>
        >,
      )
      .optional()
      .describe("Per-environment base URLs (an environment served from another CDN host)."),
    aliasCacheControl: CacheControl.default(DEFAULT_ALIAS_CACHE_CONTROL).describe(
      `Cache-Control of the aliases (sitetags.min.js), default "${DEFAULT_ALIAS_CACHE_CONTROL}": how long a release takes to reach every visitor.`,
    ),
    manifestCacheControl: CacheControl.default(DEFAULT_MANIFEST_CACHE_CONTROL).describe(
      `Cache-Control of the published manifest.json, default "${DEFAULT_MANIFEST_CACHE_CONTROL}".`,
    ),
  })
  .describe("Publishing to the CDN: base URLs and cache headers (sitetags publish, rollback, promote, embed).");
export type PublishingSettings = z.output<typeof PublishingSchema>;

/** The public base URL of an environment's bundles. */
export function baseUrlOf(publishing: PublishingSettings, apexDomain: string, env: string): string {
  return publishing.envs?.[env as (typeof ENV_NAMES)[number]]?.baseUrl ?? publishing.baseUrl ?? `https://tags.${apexDomain}/`;
}
