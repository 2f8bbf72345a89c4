/**
 * The catalogue's analytics variable numbers (analyticsVariables in
 * sites/_org.yaml), parsed by the real schema: unit tests use the numbers
 * the bundles ship with, never their own copy.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { AnalyticsVariablesSchema, type AnalyticsVariables } from "../../../../generator/config/schemas/variables.js";

const ORG = fileURLToPath(new URL("../../../../sites/_org.yaml", import.meta.url));

export const ORG_VARIABLES: AnalyticsVariables = AnalyticsVariablesSchema.parse(
  (parse(readFileSync(ORG, "utf8")) as { analyticsVariables: unknown }).analyticsVariables,
);
