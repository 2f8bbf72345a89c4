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
import { DIAGNOSTICS } from "../diagnostics/diagnostics.js";

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
      ctx.addIssue(codeIssue(DIAGNOSTICS.invalidRegex(src, (err as Error).message)));
      return;
    }
    const verdict = parseContext().regexVerdict?.(src) ?? { kind: "safe" };
    if (verdict.kind === "unsafe") ctx.addIssue(codeIssue(DIAGNOSTICS.unsafeRegex(src, verdict.growth, verdict.attack)));
    if (warningsMuted()) return;
    if (verdict.kind === "unchecked") ctx.addIssue(codeIssue(DIAGNOSTICS.uncheckedRegex(src, verdict.reason)));
    if (looksSlashWrapped(src)) ctx.addIssue(codeIssue(DIAGNOSTICS.slashWrapped(src)));
  })
  .describe("A JavaScript regular expression source (no slashes).");

export const SelectorString = z
  .string()
  .min(1)
  .superRefine((src, ctx) => {
    try {
      const problem = selectorProblem(src, parseSelector(src));
      if (problem) ctx.addIssue(codeIssue(DIAGNOSTICS.invalidSelector(src, problem)));
    } catch (err) {
      ctx.addIssue(codeIssue(DIAGNOSTICS.invalidSelector(src, (err as Error).message)));
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
