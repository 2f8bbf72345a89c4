/**
 * Loads the catalogue: sites/_org.yaml and sites/CODE.yaml. A short
 * pipeline: read and parse every file (sources.ts), validate the
 * organisation file, check the site files and their hosts across files
 * (site-checks.ts), then resolve one BundleConfig per site x environment
 * from its layers (resolve.ts). Every problem in every file is collected;
 * nothing stops at the first.
 */
import { join } from "node:path";

import { sortDiagnostics, type Diagnostic } from "../diagnostics/diagnostic.js";
import { DIAGNOSTICS } from "../diagnostics/diagnostics.js";
import { ORG_FILE, type Catalogue, type LoadOptions } from "./catalogue.js";
import { issuesToDiagnostics } from "./issues.js";
import { parseWithWarnings, type ParseContext } from "./parse.js";
import { regexVerdict } from "./regex-safety.js";
import { resolveBundles } from "./resolve.js";
import { OrgFileSchema } from "./schema.js";
import { checkSites } from "./site-checks.js";
import { readSources } from "./sources.js";

export { ORG_FILE, type Catalogue, type LoadOptions, type ResolvedBundle, type SiteModel } from "./catalogue.js";

export async function loadCatalogue(options: LoadOptions): Promise<Catalogue> {
  // Checks the schema runs through the parse context (they need Node).
  const checks: ParseContext = { regexVerdict };
  const diagnostics: Diagnostic[] = [];
  const catalogue: Catalogue = { sitesDir: options.sitesDir, sites: [], bundles: [], diagnostics, files: [] };

  // 1. Parse: every file, with positions.
  const read = await readSources(options.sitesDir, diagnostics, options.only);
  if (!read.readable) return catalogue;
  catalogue.files = read.files;
  const { display } = read;

  // 2. The organisation file.
  const orgSource = options.org?.source ?? read.sources.get(ORG_FILE);
  if (options.org) catalogue.org = options.org.model;
  else if (!read.names.includes(ORG_FILE)) {
    diagnostics.push({ ...DIAGNOSTICS.orgMissing(ORG_FILE, display(options.sitesDir)), file: display(join(options.sitesDir, ORG_FILE)) });
  } else if (orgSource) {
    const parsed = parseWithWarnings(OrgFileSchema, orgSource.data, checks);
    if (parsed.success) catalogue.org = parsed.data;
    diagnostics.push(
      ...issuesToDiagnostics(parsed.success ? parsed.warnings : parsed.issues, () => ({ source: orgSource, prefix: [] }), {
        schema: OrgFileSchema,
        moduleNames: options.moduleNames,
        data: orgSource.data,
      }),
    );
  }
  if (!read.names.some((n) => !n.startsWith("_"))) diagnostics.push(DIAGNOSTICS.noSiteFiles(display(options.sitesDir)));

  // 3. Cross-file checks: site codes, environments, hosts.
  const { sites, toResolve } = checkSites(read, options, checks, diagnostics);
  catalogue.sites = sites;

  // 4. Resolve: each site x environment from its layers.
  if (orgSource) resolveBundles(catalogue, orgSource, toResolve, options, checks, diagnostics);

  catalogue.diagnostics = sortDiagnostics(diagnostics);
  return catalogue;
}
