/**
 * README "Adding a module" is complete: in a copy of the repository (its git
 * files; node_modules linked), its steps are followed literally, each code
 * block written, inserted or run as its first line says, on the site that
 * README "Adding a site" creates. The build then gives that site's bundles
 * the new module and its marker, and another site's bundles neither.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO, tempDir } from "../helpers/fs.js";
import { listFiles } from "../../generator/walk.js";

interface Block {
  step: number;
  lang: string;
  /** The block's first line: where it goes. */
  target: string;
  body: string;
}

/** The text of a README section, up to the next "## ". */
function section(readme: string, title: string): string {
  const start = readme.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`README has no section "${title}"`);
  return readme.slice(start + 1).split(/\n## /)[0];
}

/** The fenced code blocks of a section, each with the numbered step it belongs to (0 before the first). */
function blocks(text: string): { steps: number[]; blocks: Block[] } {
  const steps: number[] = [];
  const out: Block[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const step = /^(\d+)\. /.exec(lines[i]);
    if (step) steps.push(Number(step[1]));
    const fence = /^( *)```(\w+)$/.exec(lines[i]);
    if (!fence) continue;
    const indent = fence[1].length;
    const body: string[] = [];
    for (i++; lines[i] !== `${fence[1]}\`\`\``; i++) body.push(lines[i].slice(indent));
    out.push({ step: steps[steps.length - 1] ?? 0, lang: fence[2], target: body[0], body: body.slice(1).join("\n") + "\n" });
  }
  return { steps, blocks: out };
}

/** Inserts `text` before line `at` of a file's lines. */
const insertAt = (file: string, at: number, text: string) => {
  const lines = readFileSync(file, "utf8").split("\n");
  lines.splice(at, 0, ...text.replace(/\n$/, "").split("\n"));
  writeFileSync(file, lines.join("\n"));
};

/** Does what a block's first line says; returns what it did, for the test's record. */
function follow(copy: string, block: Block): string {
  const path = (p: string) => join(copy, p.trim());
  if (block.lang === "sh") {
    for (const command of `${block.target}\n${block.body}`.split("\n").filter((l) => l.trim() && !l.startsWith("#"))) {
      const run = spawnSync("sh", ["-c", command], { cwd: copy, encoding: "utf8", env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1" } });
      expect(run.status, `${command}\n${run.stdout}\n${run.stderr}`).toBe(0);
    }
    return `ran ${block.target}`;
  }
  const where = /^(?:\/\/|#) (\S+?)(?:, (above|inside|under) (\S+?):?)?$/.exec(block.target);
  if (!where) throw new Error(`a README block the steps do not say where to put: ${block.target}`);
  const [, file, how, anchor] = where;
  if (!how) {
    mkdirSync(dirname(path(file)), { recursive: true });
    writeFileSync(path(file), block.body);
    return `wrote ${file}`;
  }
  const lines = readFileSync(path(file), "utf8").split("\n");
  if (how === "under") {
    const at = lines.findIndex((l) => l === `${anchor}:`);
    expect(at, `${file} has a line "${anchor}:"`).toBeGreaterThanOrEqual(0);
    insertAt(path(file), at + 1, block.body);
    return `inserted under ${anchor}: in ${file}`;
  }
  const decl = lines.findIndex((l) => l.startsWith(`export const ${anchor} `));
  expect(decl, `${file} declares ${anchor}`).toBeGreaterThanOrEqual(0);
  if (how === "above") {
    // Above its doc comment, if it has one.
    let at = decl;
    if (lines[at - 1]?.trim().endsWith("*/")) {
      at--;
      while (!lines[at].trim().startsWith("/**")) at--;
    }
    insertAt(path(file), at, block.body + "\n");
    return `inserted above ${anchor} in ${file}`;
  }
  const open = lines.findIndex((l, i) => i > decl && l.includes(".strictObject({"));
  insertAt(path(file), open + 1, block.body);
  return `inserted inside ${anchor} in ${file}`;
}

let copy = "";
afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

/** What is built or installed, never part of a clone (.gitignore), and git's own folder. */
const NOT_IN_A_CLONE = /^(node_modules|dist|build|\.sitetags-cache|test-results|preview\/dist|\.git)(\/|$)|^sites\/[^/]*\.schema\.json$|\.log$/;

/**
 * The repository's files as a clone has them: what git tracks, plus what it
 * does not ignore; where there is no git (.ci/run's copy has no .git), every
 * file but what is built or installed.
 */
function repositoryFiles(): string[] {
  try {
    return execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], {
      cwd: REPO,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    })
      .split("\0")
      .filter(Boolean);
  } catch {
    return listFiles(REPO, { skipFolder: (_, full) => NOT_IN_A_CLONE.test(relative(REPO, full).split(sep).join("/")) })
      .map((f) => relative(REPO, f).split(sep).join("/"))
      .filter((f) => !NOT_IN_A_CLONE.test(f));
  }
}

describe('README "Adding a module"', () => {
  it("followed literally in a copy of the repository, it adds a module that only the site enabling it carries", { timeout: 420_000 }, () => {
    const readme = readFileSync(join(REPO, "README.md"), "utf8");
    const { steps, blocks: moduleBlocks } = blocks(section(readme, "Adding a module"));
    expect(steps).toEqual(steps.map((_, i) => i + 1));
    expect(moduleBlocks.every((b) => b.step > 0)).toBe(true);

    // The repository as a clone has it, node_modules linked.
    copy = tempDir("readme-module");
    for (const f of repositoryFiles()) if (existsSync(join(REPO, f))) cpSync(join(REPO, f), join(copy, f));
    symlinkSync(join(REPO, "node_modules"), join(copy, "node_modules"), "dir");

    // The site of "Adding a site", step 1.
    const site = blocks(section(readme, "Adding a site")).blocks.find((b) => b.lang === "yaml")!;
    const code = /^code: (\S+)$/m.exec(site.body)![1];
    writeFileSync(join(copy, "sites", `${code}.yaml`), `${site.target}\n${site.body}`);

    const done = moduleBlocks.map((b) => `${b.step}: ${follow(copy, b)}`);
    expect(done.some((d) => d.includes("wrote runtime-modules/modules/"))).toBe(true);

    // The module the steps added: the one folder the copy has that the repository does not.
    const folders = (dir: string) => readdirSync(join(dir, "runtime-modules/modules"));
    const added = folders(copy).filter((f) => !folders(REPO).includes(f));
    expect(added).toHaveLength(1);
    const manifestText = readFileSync(join(copy, "runtime-modules/modules", added[0], "module.ts"), "utf8");
    const name = /name: "(\w+)"/.exec(manifestText)![1];
    const marker = /markers: \["([^"]+)"/.exec(manifestText)![1];

    const manifest = () =>
      JSON.parse(readFileSync(join(copy, "dist/manifest.json"), "utf8")) as { bundles: Array<{ site: string; file: string; modules: string[] }> };
    const ours = manifest().bundles.filter((b) => b.site === code);
    expect(ours.length).toBeGreaterThan(0);
    for (const b of ours) {
      expect(b.modules).toContain(name);
      expect(readFileSync(join(copy, "dist", b.file), "utf8")).toContain(marker);
    }
    // Another site, built after: neither the module nor its marker.
    const other = spawnSync(process.execPath, ["bin/sitetags.js", "build", "--site", "go"], { cwd: copy, encoding: "utf8" });
    expect(other.status, other.stderr).toBe(0);
    const theirs = manifest().bundles.filter((b) => b.site === "go");
    expect(theirs.length).toBeGreaterThan(0);
    for (const b of theirs) {
      expect(b.modules).not.toContain(name);
      expect(readFileSync(join(copy, "dist", b.file), "utf8")).not.toContain(marker);
    }
    // The manifest never reached the browser build (stage A compiles the factory, not module.ts).
    const runtimes = readdirSync(join(copy, ".sitetags-cache/runtime"));
    for (const r of runtimes) {
      expect(
        existsSync(
          join(
            copy,
            ".sitetags-cache/runtime",
            r,
            "modules",
            added[0],
            `${readdirSync(join(copy, "runtime-modules/modules", added[0]))
              .find((f) => f.startsWith("create-"))!
              .replace(/\.ts$/, ".js")}`,
          ),
        ),
      ).toBe(true);
      expect(existsSync(join(copy, ".sitetags-cache/runtime", r, "modules", added[0], "module.js"))).toBe(false);
    }
    // docs/modules.md lists it (the last step regenerated its table).
    expect(readFileSync(join(copy, "docs/modules.md"), "utf8")).toContain(`| \`${name}\` |`);
  });
});
