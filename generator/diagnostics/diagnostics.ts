/**
 * The one registry of diagnostic factories: every diagnostic the generator
 * reports is made by one of these, named for the problem
 * (`DIAGNOSTICS.hostConflict(host, owner, at)`); call sites pass data only.
 * Each factory's code is in DIAGNOSTIC_CODES (codes.ts) and documented in
 * docs/diagnostics.md (a unit test checks both).
 */
import { BUILD_DIAGNOSTICS, MERGE_DIAGNOSTICS, PUBLISH_DIAGNOSTICS } from "./build-diagnostics.js";
import { CATALOGUE_DIAGNOSTICS, FILE_DIAGNOSTICS, YAML_DIAGNOSTICS } from "./config-diagnostics.js";
import { RULES_DIAGNOSTICS } from "./rules-diagnostics.js";
import { SCHEMA_DIAGNOSTICS } from "./schema-diagnostics.js";

export const DIAGNOSTICS = {
  ...FILE_DIAGNOSTICS,
  ...YAML_DIAGNOSTICS,
  ...CATALOGUE_DIAGNOSTICS,
  ...SCHEMA_DIAGNOSTICS,
  ...RULES_DIAGNOSTICS,
  ...BUILD_DIAGNOSTICS,
  ...MERGE_DIAGNOSTICS,
  ...PUBLISH_DIAGNOSTICS,
} as const;

export type { DiagnosticBody, DiagnosticFactory, Severity } from "./factory.js";
