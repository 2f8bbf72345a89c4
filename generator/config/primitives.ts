/**
 * Value schemas shared by every part of the config model: environment and
 * consent enums, regular expressions, CSS selectors, host names, URLs.
 */
import { z } from "zod";
import { parse as parseSelector } from "css-what";
import { CONSENT_CATEGORIES, ENV_NAMES } from "./constants.js";
import { selectorProblem } from "./selector-check.js";
import { codeIssue, parseContext, warningsMuted } from "./parse.js";
import { looksSlashWrapped } from "./regex-literal.js";
import { MESSAGES } from "../diagnostics/codes.js";

export const EnvNameSchema = z.enum(ENV_NAMES);
export type EnvName = z.infer<typeof EnvNameSchema>;

export const ConsentCategorySchema = z.enum(CONSENT_CATEGORIES);
export type ConsentCategory = z.infer<typeof ConsentCategorySchema>;

export const RegexString = z
  .string()
  .superRefine((src, ctx) => {
    try {
      new RegExp(src);
    } catch (err) {
      ctx.addIssue(codeIssue("CONFIG_INVALID_REGEX", `invalid regular expression /${src}/: ${(err as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, "")}`));
      return;
    }
    const verdict = parseContext().regexVerdict?.(src) ?? { kind: "safe" };
    if (verdict.kind === "unsafe") ctx.addIssue(codeIssue("CONFIG_UNSAFE_REGEX", MESSAGES.unsafeRegex(src, verdict.growth, verdict.attack)));
    if (warningsMuted()) return;
    if (verdict.kind === "unchecked") ctx.addIssue(codeIssue("CONFIG_REGEX_UNCHECKED", MESSAGES.uncheckedRegex(src, verdict.reason), "warning"));
    if (looksSlashWrapped(src)) ctx.addIssue(codeIssue("CONFIG_REGEX_SLASHES", MESSAGES.slashWrapped(src), "warning"));
  })
  .describe("A JavaScript regular expression source (no slashes).");

export const SelectorString = z
  .string()
  .min(1)
  .superRefine((src, ctx) => {
    try {
      const problem = selectorProblem(src, parseSelector(src));
      if (problem) ctx.addIssue(codeIssue("CONFIG_INVALID_SELECTOR", `invalid CSS selector "${src}": ${problem}`));
    } catch (err) {
      ctx.addIssue(codeIssue("CONFIG_INVALID_SELECTOR", `invalid CSS selector "${src}": ${(err as Error).message.replace(/found\s*$/, "found the end of the selector")}`));
    }
  })
  .describe("A CSS selector.");

const HOSTNAME = /^(?=.{1,253}$)(?:\*\.)?(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
export const Hostname = z
  .string()
  .regex(HOSTNAME, { message: "must be a lower-case host name" })
  .describe("A host name, optionally starting with *. for every subdomain.");

export const HttpsUrl = z
  .string()
  .regex(/^https:\/\/[^\s/]+\/\S*$/, { message: "must be an absolute https:// URL" })
  .describe("An absolute https URL.");

export const PathPrefix = z.string().regex(/^\//, { message: "must start with /" });

