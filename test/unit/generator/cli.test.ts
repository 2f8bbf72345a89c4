import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";

// Cold compiles: generous on a loaded two-core machine.
vi.setConfig({ testTimeout: 120_000 });
import { build } from "../../../generator/bundle/build.js";
import { main } from "../../../generator/cli/main.js";
import { copyCatalogue, REPO, SITES, snapshotTree, tempDir } from "../../helpers/fs.js";
import { warmSharedCache } from "../../helpers/shared-cache.js";

const BIN = join(REPO, "bin", "sitetags.js");

/** The real CLI: a node process running bin/sitetags.js (its exit code, its flushed stdout and stderr). */
function cli(args: string[], cwd = REPO) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: "utf8", env: { ...process.env, FORCE_COLOR: "0" } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * The same CLI in this process: bin/sitetags.js's main(argv, io) with its
 * output captured. Each command keeps at least one real process above (the
 * bin's exit code and flushing); the others run here, where a node start and
 * the generator's load (about a second of CPU a call) are paid once per file.
 */
async function cliIn(args: string[], cwd = REPO) {
  let stdout = "";
  let stderr = "";
  const code = await main(args, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), isTTY: false, cwd });
  return { code, stdout, stderr };
}

/** A catalogue with two problems in two files. */
function badCatalogue() {
  const dir = copyCatalogue();
  writeFileSync(join(dir, "go.yaml"), readFileSync(join(dir, "go.yaml"), "utf8").replace(/^spa: (true|false)$/m, "spaa: true"));
  writeFileSync(join(dir, "clep.yaml"), `${readFileSync(join(dir, "clep.yaml"), "utf8")}\ntiming:\n  failover: 1000\n`);
  return dir;
}

describe("the sitetags CLI", () => {
  beforeAll(() => {
    expect(readdirSync(join(REPO, "build", "generator", "cli"))).toContain("main.js");
  });

  it("validate: the real catalogue is valid", () => {
    const r = cli(["validate"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\d+ sites, \d+ bundles: configuration is valid/);
  });

  it("a folder named like a site file, or a site file with an unresolved alias, is a located diagnostic (exit 1), never an internal error", async () => {
    const dir = copyCatalogue();
    mkdirSync(join(dir, "drafts.yaml"));
    writeFileSync(join(dir, "go.yaml"), readFileSync(join(dir, "go.yaml"), "utf8").replace(/^spa: (true|false)$/m, "spa: *nosuch"));
    const r = await cliIn(["validate", "--sites", dir, "--json"]);
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code).toBe(1);
    const codes = (JSON.parse(r.stdout) as { diagnostics: Array<{ code: string; file?: string; line?: number }> }).diagnostics.map((d) => [
      d.code,
      d.file?.split("/").pop(),
      d.line ?? null,
    ]);
    expect(codes).toContainEqual(["CONFIG_UNREADABLE_FILE", "drafts.yaml", null]);
    expect(codes).toContainEqual(["YAML_SYNTAX", "go.yaml", expect.any(Number)]);
  });

  it('"Diagnostics go to stderr, all of them at once, one headline each", followed by a code frame; exit 1', () => {
    const r = cli(["validate", "--sites", badCatalogue()]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    const headlines = r.stderr.split("\n").filter((l) => / error [A-Z_]+: /.test(l));
    expect(headlines).toHaveLength(2);
    expect(headlines[0]).toMatch(/clep\.yaml:\d+:13 error CONFIG_OUT_OF_RANGE: 1000 is out of range: must be at least 1500 at timing\.failover$/);
    expect(headlines[1]).toMatch(/go\.yaml:\d+:1 error CONFIG_UNKNOWN_KEY: unknown key "spaa" \(did you mean "spa"\?\) at spaa$/);
    expect(r.stderr).toMatch(/\n> +\d+ \| spaa: true\n +\| \^\n/);
  });

  it('"With --json the same facts come as {"diagnostics":[{file,line,column,code,message,path}]}"', async () => {
    const r = await cliIn(["validate", "--json", "--sites", badCatalogue()]);
    expect(r.code).toBe(1);
    const parsed = JSON.parse(r.stdout);
    expect(parsed.diagnostics).toHaveLength(2);
    for (const d of parsed.diagnostics) {
      for (const key of ["file", "line", "column", "code", "message", "path"]) expect(d).toHaveProperty(key);
    }
    expect(parsed.diagnostics[1]).toMatchObject({ code: "CONFIG_UNKNOWN_KEY", path: "spaa", column: 1 });
  });

  it('"Headlines name the path relative to the catalogue\'s parent, sites/x.yaml, wherever the command runs"', async () => {
    const root = tempDir("parent");
    const sites = join(root, "sites");
    cpSync(badCatalogue(), sites, { recursive: true });
    for (const cwd of [tmpdir(), REPO, sites]) {
      const r = await cliIn(["validate", "--sites", sites], cwd);
      expect(r.code).toBe(1);
      const files = r.stderr
        .split("\n")
        .filter((l) => / error [A-Z_]+: /.test(l))
        .map((l) => l.split(":")[0]);
      expect(files, cwd).toEqual(["sites/clep.yaml", "sites/go.yaml"]);
    }
  });

  it('"A failed build with --out elsewhere" names that folder, not dist/', async () => {
    const root = tempDir("elsewhere");
    const r = await cliIn(["build", "--sites", badCatalogue(), "--out", join(root, "out")], root);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/\nbuild failed: out\/ was left as it was\n/);
    expect(r.stderr).not.toMatch(/dist\//);
  });

  it("a cold build, whose config is parsed first on a thread of its own, reports exactly validate's diagnostics for a catalogue with errors (exit 1, nothing written)", async () => {
    // No pieces in a fresh cache: the compiled CLI loads the catalogue on the config worker, finds it not clean and loads it again here.
    const sites = badCatalogue();
    const out = tempDir("out");
    const built = cli(["build", "--json", "--sites", sites, "--out", out, "--cache", tempDir("cache")]);
    const validated = await cliIn(["validate", "--json", "--sites", sites]);
    expect(built.code).toBe(1);
    expect(JSON.parse(built.stdout).diagnostics).toHaveLength(2);
    expect(JSON.parse(built.stdout).diagnostics).toEqual(JSON.parse(validated.stdout).diagnostics);
    expect(readdirSync(out)).toEqual([]);
  });

  it('a warning "prints, does not fail validate, and appears in --json with a severity field"', async () => {
    const sites = copyCatalogue();
    const org = readFileSync(join(sites, "_org.yaml"), "utf8");
    const wrapped = org.replace('- { pattern: "-dev\\\\.kiwi\\\\.example$", env: dev }', '- { pattern: "/-dev\\\\.kiwi\\\\.example$/i", env: dev }');
    expect(wrapped).not.toBe(org);
    writeFileSync(join(sites, "_org.yaml"), wrapped);
    const r = await cliIn(["validate", "--sites", sites]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/configuration is valid/);
    expect(r.stderr).toMatch(/_org\.yaml:\d+:\d+ warning CONFIG_REGEX_SLASHES: /);
    expect(r.stderr).toMatch(/\n1 warning\n$/);
    const json = await cliIn(["validate", "--json", "--sites", sites]);
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout);
    expect(parsed.ok).toBe(true);
    expect(parsed.diagnostics).toEqual([expect.objectContaining({ code: "CONFIG_REGEX_SLASHES", severity: "warning", path: "envFallback[1].pattern" })]);
  });

  it("--json output larger than a pipe's buffer reaches a slow reader whole (the CLI exits only once stdout is flushed)", () => {
    const dir = copyCatalogue();
    for (const name of readdirSync(dir).filter((n) => n.endsWith(".yaml") && !n.startsWith("_"))) {
      const extra = Array.from({ length: 12 }, (_, i) => `unknownKey${i}: ${i}`).join("\n");
      writeFileSync(join(dir, name), `${readFileSync(join(dir, name), "utf8")}\n${extra}\n`);
    }
    // The reader sleeps first, so the 64 KB pipe buffer fills while the CLI is still writing.
    const r = spawnSync("sh", ["-c", `"${process.execPath}" "${BIN}" validate --json --sites "${dir}" | (sleep 0.5; cat)`], {
      encoding: "utf8",
      maxBuffer: 64 << 20,
    });
    expect(r.stdout.length).toBeGreaterThan(65_536);
    const parsed = JSON.parse(r.stdout) as { diagnostics: Array<{ code: string }> };
    expect(parsed.diagnostics.filter((d) => d.code === "CONFIG_UNKNOWN_KEY").length).toBeGreaterThanOrEqual(12 * 50);
  });

  it("wrong usage exits 2", async () => {
    expect(cli(["frobnicate"]).code).toBe(2);
    expect((await cliIn([])).code).toBe(2);
    expect((await cliIn(["build", "--shard", "0/2"])).code).toBe(2);
    expect((await cliIn(["build", "--bogus"])).code).toBe(2);
    expect((await cliIn(["inspect", "clep"])).code).toBe(2);
    for (const args of [
      ["validate", "extra"],
      ["list", "extra"],
      ["validate", "--shard", "abc"],
      ["list", "--site", "clep"],
      ["validate", "--env", "prod"],
    ]) {
      const r = await cliIn(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(/takes no positional arguments|applies to build/);
    }
    expect((await cliIn(["--help"])).code).toBe(0);
  });

  it("an unknown --site is a configuration error (exit 1), not a silent empty build; reported alone (its environments cannot be checked)", async () => {
    const r = await cliIn(["build", "--site", "nosuchsite", "--out", tempDir("out"), "--cache", tempDir("cache")]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/CONFIG_UNKNOWN_SITE: no site "nosuchsite"/);
    const inspect = await cliIn(["inspect", "nosuchsite", "--env", "prod"]);
    expect(inspect.code).toBe(1);
    expect(inspect.stderr).toMatch(/CONFIG_UNKNOWN_SITE/);
    expect(inspect.stderr).not.toMatch(/CONFIG_UNKNOWN_ENV_OPTION/);
  });

  it('a mistyped --site or --env gets the nearest name: "did you mean"; an environment the selected site lacks gets none', async () => {
    const out = ["--out", tempDir("out"), "--cache", tempDir("cache")];
    expect((await cliIn(["build", "--site", "bigfutre", ...out])).stderr).toMatch(/no site "bigfutre" in the catalogue \(did you mean "bigfuture"\?\)/);
    expect((await cliIn(["build", "--site", "bigfuture", "--env", "prd", ...out])).stderr).toMatch(
      /no selected site has environment "prd" \(did you mean "prod"\?\)/,
    );
    const lacking = await cliIn(["build", "--site", "bigfuture", "--env", "oat", ...out]);
    expect(lacking.code).toBe(1);
    expect(lacking.stderr).toMatch(/no selected site has environment "oat"\n/);
  });

  it("a reader that stops early (| head) is no error: exit 0, nothing on stderr", () => {
    const r = spawnSync("bash", ["-c", `set -o pipefail; "${process.execPath}" "${BIN}" schema --json | head -c 10 >/dev/null`], {
      cwd: REPO,
      encoding: "utf8",
    });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });

  it("list: sites, their environments and modules (--json too)", async () => {
    const r = cli(["list", "--json"]);
    expect(r.code).toBe(0);
    const { sites } = JSON.parse(r.stdout);
    expect(sites.length).toBeGreaterThanOrEqual(55);
    expect(sites.find((s: { site: string }) => s.site === "clep")).toMatchObject({ modules: ["chat", "survey"] });
    const text = await cliIn(["list"]);
    expect(text.stdout).toMatch(/^site +name +app id/);
  });

  it("inspect SITE --env ENV: which modules a bundle holds and why, bytes per module", async () => {
    // The repository's compile cache: inspect's report, not a cold compile, is under test here.
    const cache = await warmSharedCache();
    const r = cli(["inspect", "clep", "--env", "prod", "--cache", cache, "--out", tempDir("out")]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^prod\/clep: [\d.]+ KiB minified, [\d.]+ KiB gzip/);
    expect(r.stdout).toMatch(/\nchat +yes +\d+ +enabled at sites\/clep\.yaml:\d+:\d+/);
    // Issue 21: the deferred second file, named with its bytes (not budgeted).
    expect(r.stdout).toMatch(
      /\ndeferred file: prod\/clep\/sitetags\.defer\.[0-9a-f]{10}\.min\.js, [\d.]+ KiB minified, [\d.]+ KiB gzip, after the first page view \(not budgeted\)\n/,
    );
    const go = JSON.parse((await cliIn(["inspect", "go", "--env", "prod", "--json", "--cache", cache])).stdout);
    expect(go.deferred).toMatchObject({
      file: expect.stringMatching(/^prod\/go\/sitetags\.defer\.[0-9a-f]{10}\.min\.js$/),
      integrity: expect.stringMatching(/^sha384-/),
    });
    expect(go.deferred.gzipBytes).toBeGreaterThan(1000);
    expect(go.modules.find((m: { name: string }) => m.name === "chat")).toMatchObject({ included: false, bytes: 0 });
    expect(go.modules.find((m: { name: string }) => m.name === "core").bytes).toBeGreaterThan(1000);
    // The rows add up to the bundle: core, the modules, the checks (outside production), the config.
    const sum = (d: { modules: Array<{ bytes: number }> }) => d.modules.reduce((n, m) => n + m.bytes, 0);
    expect(sum(go)).toBe(go.bytes);
    expect(go.modules.find((m: { name: string }) => m.name === "devChecks")).toMatchObject({ included: false, bytes: 0 });
    const qa = JSON.parse((await cliIn(["inspect", "satreg", "--env", "qa", "--json", "--cache", cache])).stdout);
    expect(qa.modules.find((m: { name: string }) => m.name === "devChecks")).toMatchObject({ included: true, bytes: expect.any(Number) });
    expect(qa.modules.find((m: { name: string }) => m.name === "devChecks").bytes).toBeGreaterThan(1000);
    expect(sum(qa)).toBe(qa.bytes);
  });

  it("inspect SITE --env ENV lists the bundle's declared tags with category, lifecycle and source (issue 20)", async () => {
    // The worktree's own compile cache (.sitetags-cache/, the default): a fresh one recompiles the whole runtime first.
    await warmSharedCache();
    const r = await cliIn(["inspect", "newsroom", "--env", "qa", "--out", tempDir("out")]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\nrum +performance +pageTop +script +rum +sites\/newsroom\.yaml:\d+:\d+/);
    expect(r.stdout).toMatch(/\nreferral +functional +domReady +script +- +sites\/newsroom\.yaml:\d+:\d+/);
    expect(r.stdout).toMatch(/\nchat-flow +functional +domReady +script +chatFlow +sites\/newsroom\.yaml:\d+:\d+/);
    const qa = JSON.parse((await cliIn(["inspect", "newsroom", "--env", "qa", "--json"])).stdout);
    expect(qa.tags.map((t: { code: string }) => t.code)).toEqual(["beacon", "chat-flow", "messaging", "referral", "rum", "session-replay"]);
    expect(qa.tags[0]).toMatchObject({
      category: "performance",
      lifecycle: "pageTop",
      kind: "script",
      family: "beacon",
      source: expect.stringMatching(/^sites\/newsroom\.yaml:\d+:\d+$/),
    });
    const prod = JSON.parse((await cliIn(["inspect", "newsroom", "--env", "prod", "--json"])).stdout);
    expect(prod.tags).toEqual([]);
    expect(
      prod.modules.filter(
        (m: { name: string; included: boolean }) => ["tags", "rum", "beacon", "adTracker", "chatFlow", "pushNotifications"].includes(m.name) && m.included,
      ),
    ).toEqual([]);
  });

  it("schema: writes the JSON Schema every site file names in its first line", () => {
    const out = tempDir("schema");
    const r = cli(["schema", "--out", out]);
    expect(r.code).toBe(0);
    const site = JSON.parse(readFileSync(join(out, "site.schema.json"), "utf8"));
    expect(site.$schema).toMatch(/json-schema/);
    expect(Object.keys(site.properties)).toEqual(expect.arrayContaining(["code", "appId", "hosts", "modules", "timing", "envs"]));
    expect(site.additionalProperties).toBe(false);
    expect(site.properties.timing.properties.failover).toMatchObject({ minimum: 1500, maximum: 9000 });
    const org = JSON.parse(readFileSync(join(out, "org.schema.json"), "utf8"));
    expect(Object.keys(org.properties)).toContain("apexDomain");
    for (const name of readdirSync(SITES).filter((n) => n.endsWith(".yaml"))) {
      const first = readFileSync(join(SITES, name), "utf8").split("\n")[0];
      expect(first).toBe(`# yaml-language-server: $schema=./${name === "_org.yaml" ? "org" : "site"}.schema.json`);
    }
  });

  it("build on worker threads gives the same bytes as an in-process build, and prints the summary table", async () => {
    const out = tempDir("out");
    const r = cli(["build", "--site", "clep", "--site", "go", "--out", out, "--cache", tempDir("cache"), "--workers", "2"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/bundles built +\d+/);
    expect(r.stdout).toMatch(/median gzip/);
    expect(r.stdout).toMatch(/median brotli +\d/);
    expect(r.stdout).toMatch(/largest bundle +\S+ [\d.]+ KiB gzip, [\d.]+ KiB brotli/);
    const inProcess = tempDir("out");
    // The CLI's side compiles cold on its worker threads; the API's side links from the repository's compile cache (two cold compiles agreeing: build.test.ts).
    const result = await build({ sites: ["clep", "go"], outDir: inProcess, cacheDir: await warmSharedCache() });
    expect(result.ok).toBe(true);
    expect(snapshotTree(out)).toEqual(snapshotTree(inProcess));
  });

  it('build --json: machine-readable result; "A build that fails leaves dist/ exactly as it was" (exit 3 on over budget)', async () => {
    const out = tempDir("out");
    const cache = await warmSharedCache();
    const ok = await cliIn(["build", "--site", "go", "--env", "prod", "--json", "--out", out, "--cache", cache]);
    expect(ok.code).toBe(0);
    const parsed = JSON.parse(ok.stdout);
    expect(parsed.bundles).toHaveLength(1);
    expect(parsed.bundles[0]).toMatchObject({ site: "go", env: "prod", status: "built" });
    const before = snapshotTree(out);
    const sites = copyCatalogue();
    writeFileSync(join(sites, "go.yaml"), `${readFileSync(join(sites, "go.yaml"), "utf8")}\nbudget:\n  gzipBytes: 1000\n`);
    const failed = cli(["build", "--site", "go", "--env", "prod", "--sites", sites, "--out", out, "--cache", cache]);
    expect(failed.code).toBe(3);
    expect(failed.stderr).toMatch(/go\.yaml:\d+:\d+ error BUILD_OVER_BUDGET: bundle prod\/go is \d+ bytes gzipped/);
    expect(snapshotTree(out)).toEqual(before);
    mkdirSync(join(out, "unrelated"), { recursive: true });
  });

  it("a one-site rebuild through the CLI (the stamp's replay misses, then the build) rebuilds that site, and a bundle whose file is gone (issue #21)", async () => {
    const sites = copyCatalogue();
    const out = tempDir("out");
    const cache = await warmSharedCache();
    const run = () => {
      const r = cli(["build", "--site", "clep", "--site", "go", "--sites", sites, "--out", out, "--cache", cache, "--json"]);
      expect(r.code, r.stderr).toBe(0);
      const { bundles } = JSON.parse(r.stdout) as { bundles: Array<{ site: string; env: string; status: string }> };
      const manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8")) as {
        bundles: Array<{ file: string; alias: string; deferred?: { file: string } }>;
      };
      // Every file the manifest names is there.
      for (const b of manifest.bundles) for (const f of [b.file, b.alias, b.deferred?.file ?? b.file]) expect(existsSync(join(out, f)), f).toBe(true);
      return Object.fromEntries(bundles.map((b) => [`${b.env}/${b.site}`, b.status]));
    };
    const changeGo = (ms: number) => writeFileSync(join(sites, "go.yaml"), `${readFileSync(join(SITES, "go.yaml"), "utf8")}\ntiming:\n  pageLoad: ${ms}\n`);
    const first = run();
    expect(Object.values(first).every((s) => s === "built")).toBe(true);
    const goKeys = Object.keys(first).filter((k) => k.endsWith("/go"));
    // go changed, and clep's production alias deleted: the replay finds it gone, so the plan looks for every file and rebuilds that bundle.
    changeGo(3001);
    rmSync(join(out, "prod", "clep", "sitetags.min.js"));
    const second = run();
    for (const [key, status] of Object.entries(second)) expect(status, key).toBe(goKeys.includes(key) || key === "prod/clep" ? "built" : "reused");
    // go changed again, nothing gone: the plan takes the manifest the replay read, with its files present.
    changeGo(3002);
    const third = run();
    for (const [key, status] of Object.entries(third)) expect(status, key).toBe(goKeys.includes(key) ? "built" : "reused");
  });
});
