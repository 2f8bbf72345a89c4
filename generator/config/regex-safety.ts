/**
 * Regular expressions of the configuration run in visitors' browsers against
 * every URL and host, so one that backtracks catastrophically can freeze a
 * student's page. Each pattern is checked with recheck (a ReDoS checker
 * based on automata theory, with fuzzing for what automata cannot model) at
 * build time; the checker never reaches a bundle.
 *
 * recheck's pure-JavaScript backend runs in this thread: no Java, no native
 * binary, no worker. Verdicts are kept per pattern for the process, and a
 * pattern without any quantifier (*, +, ?, {n}) cannot backtrack more than
 * linearly, so it is not handed to the checker at all. Measurements:
 * docs/diagnostics.md, "Unsafe regular expressions".
 */
import { createRequire } from "node:module";
import type { Diagnostics, Parameters } from "recheck";
import type { RegexVerdict } from "./parse.js";

/**
 * A fixed seed (the fuzzer's results do not vary between runs) and attack
 * strings no longer than a long URL. The timeout is wall-clock time and only
 * a guard: a pattern it cuts short is reported as not checked (a warning),
 * so a loaded machine never turns a valid catalogue into an invalid one.
 */
export const RECHECK_PARAMS: Parameters = { randomSeed: 0, timeout: 10_000, maxAttackStringSize: 4_000 };

/** The polynomial degree from which a pattern counts as catastrophic (quadratic ones are common and harmless on URLs). */
export const MAX_POLYNOMIAL_DEGREE = 2;

export type { RegexVerdict };

const verdicts = new Map<string, RegexVerdict>();
let checkSync: ((source: string, flags: string, params?: Parameters) => Diagnostics) | undefined;

/** recheck, loaded on first use (2.9 MB of JavaScript: not loaded for a catalogue without quantifiers). */
function checker() {
  if (!checkSync) checkSync = (createRequire(import.meta.url)("recheck") as typeof import("recheck")).checkSync;
  return checkSync;
}

/** True when the pattern has no quantifier at all (its matching time is linear in the input). */
export const hasNoQuantifier = (source: string): boolean => !/[*+?{]/.test(source);

/** Runs recheck's pure-JavaScript backend in this thread (its default for checkSync is a worker that may spawn a native binary). */
function runRecheck(source: string): Diagnostics {
  const before = process.env.RECHECK_SYNC_BACKEND;
  process.env.RECHECK_SYNC_BACKEND = "pure";
  try {
    return checker()(source, "", RECHECK_PARAMS);
  } finally {
    if (before === undefined) delete process.env.RECHECK_SYNC_BACKEND;
    else process.env.RECHECK_SYNC_BACKEND = before;
  }
}

/** The verdict for a pattern that compiles (flags: none, as the runtime compiles every configured pattern). */
export function regexVerdict(source: string): RegexVerdict {
  const known = verdicts.get(source);
  if (known) return known;
  let verdict: RegexVerdict = { kind: "safe" };
  if (!hasNoQuantifier(source)) {
    const result = runRecheck(source);
    if (result.status === "vulnerable") {
      const { complexity } = result;
      const catastrophic = complexity.type === "exponential" || complexity.degree > MAX_POLYNOMIAL_DEGREE;
      if (catastrophic)
        verdict = {
          kind: "unsafe",
          growth: complexity.type === "exponential" ? "exponential time" : `time growing with the input length to the power ${complexity.degree}`,
          attack: shortAttack(result.attack.string),
        };
    } else if (result.status === "unknown") verdict = { kind: "unchecked", reason: result.error.kind };
  }
  verdicts.set(source, verdict);
  return verdict;
}

/** An attack string as a message shows it: at most 40 characters. */
const shortAttack = (text: string) => (text.length > 40 ? `${text.slice(0, 40)}…` : text);
