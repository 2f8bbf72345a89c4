/**
 * The checks across site files: each file's schema, its code against its
 * file name and the other files' codes, its environments, and its hosts
 * against every other site's (exact names, then host patterns *.suffix).
 * They run when other parts of a file are wrong, so every problem is
 * reported in one run.
 */
import { join } from "node:path";

import { z } from "zod";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { DIAGNOSTICS } from "../diagnostics/diagnostics.js";
import type { LoadOptions, Plain, SiteModel } from "./catalogue.js";
import { ENV_NAMES } from "./constants.js";
import { issuesToDiagnostics } from "./issues.js";
import { parseWithWarnings, type ParseContext } from "./parse.js";
import { HostsSchema, SiteCodeSchema, SiteFileSchema, type EnvName, type SiteFile } from "./schema.js";
import type { CatalogueSources } from "./sources.js";
import { diagnosticAtOffset, offsetOf, type YamlSource } from "./yaml-source.js";

/** A site file to resolve (valid or not: its merged settings are checked all the same). */
export interface SiteToResolve {
  model: SiteModel;
  source: YamlSource;
  valid: boolean;
}

/** The parts of a site file the cross-file checks need (used when the rest is invalid). */
const SiteIdentitySchema = z.looseObject({ code: SiteCodeSchema, hosts: HostsSchema, envs: z.looseObject({}).optional() });

/**
 * A file's code and hosts when its hosts block has problems (already
 * reported): the host names of each known environment, so that host
 * conflicts and the merged settings and rules of that file are still
 * checked in the same run. Undefined without a valid code.
 */
function salvageIdentity(raw: unknown): SiteFile | undefined {
  const data = (raw ?? {}) as Plain;
  const code = SiteCodeSchema.safeParse(data.code);
  if (!code.success) return undefined;
  const hosts: Partial<Record<EnvName, string[]>> = {};
  const rawHosts = (data.hosts ?? {}) as Plain;
  for (const env of ENV_NAMES) {
    const list = rawHosts[env];
    if (!Array.isArray(list)) continue;
    // Invalid names stay too (already reported): the environment is still listed, so its overrides are no stray.
    const names = list.filter((h): h is string => typeof h === "string");
    if (names.length) hosts[env] = names;
  }
  const envs = data.envs && typeof data.envs === "object" && !Array.isArray(data.envs) ? data.envs : undefined;
  return { ...data, code: code.data, hosts, envs } as unknown as SiteFile;
}

interface HostClaim {
  site: string;
  file: string;
  line: number;
  column: number;
}

const at = (claim: HostClaim) => `${claim.file}:${claim.line}:${claim.column}`;

/** Checks every site file; the valid ones are `sites`, all that have an identity are to resolve. */
export function checkSites(
  read: CatalogueSources,
  options: LoadOptions,
  checks: ParseContext,
  diagnostics: Diagnostic[],
): { sites: SiteModel[]; toResolve: SiteToResolve[] } {
  const { sources } = read;
  const siteNames = read.names.filter((n) => !n.startsWith("_"));
  // A file whose code matches its name owns the code; other files declaring the same code are the duplicates.
  const declared = new Map<string, string[]>();
  const codeOf = (name: string) => (sources.get(name)?.data as Plain | undefined)?.code;
  for (const name of siteNames) {
    const code = codeOf(name);
    if (typeof code === "string") declared.set(code, [...(declared.get(code) ?? []), name]);
  }
  const ownerOf = (code: string) => {
    const files = declared.get(code) ?? [];
    return files.find((f) => f.replace(/\.ya?ml$/, "") === code) ?? files[0];
  };
  const hostOwner = new Map<string, HostClaim>();
  /** Host patterns (*.suffix): checked against every other site's hosts once all are known. */
  const wildcards: Array<{ host: string; site: string; source: YamlSource; offset: number; path: string }> = [];
  const toResolve: SiteToResolve[] = [];
  let sites: SiteModel[] = [];
  // The files that own their code claim their hosts first: a copied file is the one told that its hosts are taken.
  const isCopy = (name: string) => {
    const code = codeOf(name);
    return typeof code === "string" && ownerOf(code) !== name;
  };
  for (const name of [...siteNames].sort((a, b) => Number(isCopy(a)) - Number(isCopy(b)))) {
    const source = sources.get(name);
    if (!source) continue;
    const parsed = parseWithWarnings(SiteFileSchema, source.data, checks);
    let ok = parsed.success;
    diagnostics.push(
      ...issuesToDiagnostics(parsed.success ? parsed.warnings : parsed.issues, () => ({ source, prefix: [] }), {
        schema: SiteFileSchema,
        moduleNames: options.moduleNames,
        data: source.data,
      }),
    );
    // The cross-file checks still run when other parts of the file are wrong.
    const identity = parsed.success ? parsed.data : (SiteIdentitySchema.safeParse(source.data).data ?? salvageIdentity(source.data));
    if (!identity) continue;
    const data = identity as SiteFile;
    const fail = (d: Diagnostic) => {
      diagnostics.push(d);
      ok = false;
    };
    if (data.code !== name.replace(/\.ya?ml$/, ""))
      fail(diagnosticAtOffset(source, DIAGNOSTICS.codeMismatch(data.code, name), offsetOf(source, ["code"]), "code"));
    const owner = ownerOf(data.code);
    if (owner !== name)
      fail(diagnosticAtOffset(source, DIAGNOSTICS.duplicateSite(data.code, read.display(join(options.sitesDir, owner))), offsetOf(source, ["code"]), "code"));
    // Hosts in the order the file lists them.
    const rawHosts = ((source.data as Plain).hosts ?? {}) as Plain;
    const listed = Object.keys(rawHosts).filter(
      (env): env is EnvName => (ENV_NAMES as readonly string[]).includes(env) && data.hosts[env as EnvName] !== undefined,
    );
    if (listed.length === 0) fail(diagnosticAtOffset(source, DIAGNOSTICS.noEnvironments(data.code, ENV_NAMES), offsetOf(source, ["hosts"], "key"), "hosts"));
    for (const env of listed) {
      const hosts = data.hosts[env]!;
      if (hosts.length === 0) fail(diagnosticAtOffset(source, DIAGNOSTICS.envNoHosts(env), offsetOf(source, ["hosts", env], "key"), `hosts.${env}`));
      hosts.forEach((host, i) => {
        const offset = offsetOf(source, ["hosts", env, i]);
        if (host.startsWith("*.")) wildcards.push({ host, site: data.code, source, offset, path: `hosts.${env}[${i}]` });
        const first = hostOwner.get(host);
        if (first) {
          const who = first.file === source.file ? "this site" : `site "${first.site}"`;
          fail(diagnosticAtOffset(source, DIAGNOSTICS.hostConflict(host, who, at(first)), offset, `hosts.${env}[${i}]`));
        } else {
          const pos = source.lines.linePos(offset);
          hostOwner.set(host, { site: data.code, file: source.file, line: pos.line, column: pos.col });
        }
      });
    }
    for (const env of ENV_NAMES) {
      if (data.envs?.[env] !== undefined && data.hosts[env] === undefined)
        fail(diagnosticAtOffset(source, DIAGNOSTICS.envNotHosted(env), offsetOf(source, ["envs", env], "key"), `envs.${env}`));
    }
    const envs = ENV_NAMES.filter((e) => (data.hosts[e]?.length ?? 0) > 0);
    const model: SiteModel = { code: data.code, file: source.file, data, envs };
    toResolve.push({ model, source, valid: ok });
    if (ok) sites.push(model);
  }

  // A pattern claims every host below its suffix (as the runtime's host check reads it): another site's host there is a conflict.
  for (const w of wildcards) {
    const suffix = w.host.slice(1);
    const taken = [...hostOwner].filter(
      ([host, owner]) => owner.site !== w.site && host !== w.host && (host.endsWith(suffix) || (host.startsWith("*.") && host.slice(1).endsWith(suffix))),
    );
    if (!taken.length) continue;
    const [host, owner] = taken[0];
    diagnostics.push(
      diagnosticAtOffset(w.source, DIAGNOSTICS.hostConflict(w.host, `site "${owner.site}"`, at(owner), { host, more: taken.length - 1 }), w.offset, w.path),
    );
    const entry = toResolve.find((t) => t.model.code === w.site && t.source === w.source);
    if (entry) entry.valid = false;
    sites = sites.filter((m) => m.code !== w.site);
  }
  return { sites, toResolve };
}
