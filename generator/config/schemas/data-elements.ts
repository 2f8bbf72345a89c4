/**
 * Data elements: the named values rules and tags read (a cookie, the push, the page, a value the runtime
 * provides), declared in YAML. rules.ts re-exports them; the runtime (runtime-modules/rules/data-elements.ts) imports the types only.
 */
import { z } from "zod";
import { SelectorString } from "../primitives.js";
import { codeIssue } from "../parse.js";
import { DIAGNOSTICS } from "../../diagnostics/diagnostics.js";

export const DATA_ELEMENT_NAME = /^[A-Za-z][A-Za-z0-9_.-]*$/;
/** `%name%` tokens inside strings refer to data elements. */
export const TOKEN = /%([A-Za-z][A-Za-z0-9_.-]*)%/g;

export const Name = z.string().regex(DATA_ELEMENT_NAME, { message: "must start with a letter and use letters, digits, _ . -" });
export const Scalar = z.union([z.string(), z.number(), z.boolean()]);
/** Values the runtime itself provides to data elements (`provided: NAME`); modules add theirs (`provides` in their manifests, runtime-modules/modules/NAME/module.ts). */
export const CORE_PROVIDED_VALUES = [
  "site",
  "siteName",
  "appId",
  "env",
  "bundleVersion",
  // The startup sequence and identity profile (runtime-modules/identity/create-identity.ts).
  "loggedIn",
  "loginState",
  "visitorType",
  "accountType",
  "namespace",
  "orgId",
  "graduationYear",
  "gradeLevel",
  "educationPeriodCode",
  "jobTitle",
  "source",
  "identityMap",
  "cbWebEvent",
  "cbWebEventEvents",
  // Identity facts (runtime-modules/identity/profile.ts PROFILE_VALUES; docs/identity.md).
  "accountId",
  "hashedId",
  "orgName",
  "jobTitleCode",
  "legacy",
  "studentSearchOptIn",
  "customerService",
  "roles",
  "eodbId",
  "tenantType",
  // Page naming (runtime-modules/tracking/).
  "pageName",
  "conversionPage",
  "hubEnvironment",
] as const;

const PAGE_FIELDS = ["host", "path", "hash", "query", "referrer", "title", "url"] as const;

/* ---------- data elements ---------- */

const DATA_ELEMENT_SOURCES = [
  "cookie",
  "query",
  "localStorage",
  "sessionStorage",
  "dataLayer",
  "push",
  "global",
  "dom",
  "constant",
  "page",
  "provided",
] as const;

export const DataElementSchema = z
  .strictObject({
    cookie: z.string().min(1).optional().describe("Cookie name."),
    query: z.string().min(1).optional().describe("Query parameter name."),
    localStorage: z.string().min(1).optional(),
    sessionStorage: z.string().min(1).optional(),
    dataLayer: z.string().min(1).optional().describe("Dotted path into the data layer's computed state (every push so far, merged)."),
    push: z
      .string()
      .min(1)
      .optional()
      .describe("Dotted path into the data-layer push that triggered the rule (dataLayerPush and dataOnly rules; no value in other rules)."),
    global: z
      .string()
      .regex(/^[A-Za-z_$][\w$]*(\.[\w$]+)*$/, { message: "must be a dotted path of identifiers" })
      .optional()
      .describe("Dotted path of a page global."),
    dom: z
      .strictObject({ selector: SelectorString, attribute: z.string().min(1).optional() })
      .optional()
      .describe("An element's attribute, or its text."),
    constant: Scalar.optional().describe("A constant; strings may hold %tokens%."),
    page: z.enum(PAGE_FIELDS).optional(),
    provided: z.string().min(1).optional().describe("A value the runtime or a module provides (site, env, loggedIn, …)."),
    default: Scalar.optional(),
    join: z.string().max(5).optional().describe('A list value becomes one text: its items joined by this separator (e.g. "|"); blank items are left out.'),
    fields: z
      .array(z.string().min(1))
      .min(1)
      .optional()
      .describe(
        'With join (ignored without it): each item of the list is an object; these of its fields, joined by ":", stand for it (["schoolId", "schoolName"] gives "3456:University of Kiwi").',
      ),
    fieldSeparator: z
      .string()
      .min(1)
      .max(5)
      .optional()
      .describe('With fields: what joins an item\'s fields (default ":"; ";" for a products string: category;id;quantity;price).'),
    lookup: z
      .record(z.string(), z.string())
      .optional()
      .describe(
        "A lookup table: the value, as text, is replaced by its entry (purchase-id prefix sa: answer services); a value the table does not name has no value. Applied after join, before clean and lowercase.",
      ),
    unique: z.boolean().optional().describe("A list value keeps each item once (its first occurrence), for join and reduce."),
    sort: z.boolean().optional().describe("A list value's items are sorted (as text), for join and reduce."),
    reduce: z
      .enum(["count", "max"])
      .optional()
      .describe(
        "A list value becomes one number instead of a text (join is then not used): count, the number of its non-blank items; max, the largest of its items that are numbers (none: no value).",
      ),
    truncate: z.number().int().min(1).max(1000).optional().describe("A text value is cut to this many characters (after join, clean, lowercase and lookup)."),
    clean: z.boolean().default(false).describe("Trim and collapse white space."),
    lowercase: z.boolean().default(false),
    storage: z
      .enum(["none", "pageView", "session", "visitor"])
      .default("none")
      .describe("How long a found value is remembered when its source later has none (default: not at all)."),
  })
  .superRefine((value, ctx) => {
    const sources = DATA_ELEMENT_SOURCES.filter((s) => value[s] !== undefined);
    if (sources.length !== 1) ctx.addIssue(codeIssue(DIAGNOSTICS.dataElementSources(sources, DATA_ELEMENT_SOURCES)));
    if (value.lookup && !Object.keys(value.lookup).length) ctx.addIssue({ ...codeIssue(DIAGNOSTICS.lookupEmpty()), path: ["lookup"] });
  })
  .describe("A data element: one source, plus default, cleaning and storage duration.");
export type DataElement = z.output<typeof DataElementSchema>;
