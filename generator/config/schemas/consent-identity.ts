/**
 * Schema fragments for the consent state machine, the tag gate and the
 * identity profile (runtime-modules/consent, runtime-modules/identity).
 * Not wired into SettingsSchema yet. The intended wiring in schema.ts:
 *
 *   consent: ConsentSchema.extend(ConsentExtrasSchema.shape).prefault({}),
 *   identity: IdentitySchema.prefault({}),
 *
 * Settings that exist already are reused, not repeated: consent.banner
 * (scriptSrc, domainScript, skipParam "kiwi-ccb", consentDomain),
 * consent.groups, consent.defaultCategory, exclusions (appIds, hosts,
 * allowHosts) and the site's `internal` flag.
 *
 * No value imports from schema.ts (only from primitives.ts), so schema.ts
 * may import this file without an import cycle at load time.
 * Values marked "placeholder to confirm" are not shown by the product spec.
 */
import { z } from "zod";
import { HttpsUrl, RegexString } from "../primitives.js";

const regexSource = (def: string, what: string) => RegexString.default(def).describe(`${what} A JavaScript regular expression source (no slashes).`);

const cookieName = (def: string, what: string) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_.!#$%&'*+^`|~-]+$/, { message: "must be a cookie name" })
    .default(def)
    .describe(what);

const days = (min: number, max: number, def: number, what: string) =>
  z.number().int().min(min).max(max).default(def).describe(`${what}, in days (${min}–${max}, default ${def}).`);

/** Extra keys of ConsentSchema (spec sections 2, 4 and 5). */
export const ConsentExtrasSchema = z
  .strictObject({
    privacyHostPattern: regexSource(
      "^privacy(-[a-z0-9]+)?\\.",
      'Hosts of the form privacy(-suffix).{host}, where the banner is skipped when the skip parameter (consent.banner.skipParam, "kiwi-ccb") is present.',
    ),
    syntheticsUserAgent: regexSource(
      "(Synthetics|Catchpoint|Pingdom|GomezAgent|RuxitSynthetic|DatadogSynthetics)",
      "User agents of synthetic monitoring; tags get status disabled (synthetics) for them. Placeholder to confirm.",
    ),
  })
  .describe("Consent banner skip and tag-status settings.");

const SuccessEvent = z.string().regex(/^event\d{1,4}$/, { message: "must be a success event such as event600" });

export const CredentialsSchema = z
  .strictObject({
    serviceUrl: HttpsUrl.optional().describe(
      "Credential service base URL, set per environment (envs.ENV.identity.credentials.serviceUrl); none: no credential request. Placeholder to confirm.",
    ),
    path: z
      .string()
      .regex(/^[A-Za-z0-9._~/-]+$/)
      .default("temp-user-aws-creds")
      .describe("Request path appended to serviceUrl."),
    awsDomains: z.array(z.string().min(1)).default([]).describe("Value of the cbAWSDomains query parameter (comma-joined). Placeholder to confirm."),
    attempts: z.number().int().min(1).max(10).default(3).describe("Attempts before the failure is logged and startup continues (default 3)."),
    intervalMs: z.number().int().min(0).max(10000).default(100).describe("Delay between attempts, in ms (default 100)."),
    responseField: z.string().min(1).default("cbJwtToken").describe("Response field holding the credential."),
  })
  .describe("The startup sequence's temporary credential request (spec section 7).");

export const IdentityCookiesSchema = z
  .strictObject({
    lifetime: cookieName("kiwi_lifetime", "Lifetime (visitor) cookie, written only with performance consent. Placeholder to confirm."),
    lifetimeDays: days(1, 400, 60, "Lifetime cookie lifetime"),
    legacyIdDays: days(1, 400, 390, "Legacy-id cookie (AMCV_{orgId}) lifetime"),
    destinationDays: days(1, 400, 10, "Default lifetime of destination cookies"),
    confirmationStep: cookieName(
      "kiwi_confirmation",
      "Confirmation-step cookie (session): the orders whose confirmation step was already counted this session, so a reload does not count a purchase twice; written only with performance consent. Placeholder to confirm.",
    ),
    sampling: cookieName(
      "kiwi_sampling",
      "The visitor's sampling id (the sampled-in/out cookie per host of spec section 9), written on the page's host the first time a sampled tag asks. Placeholder to confirm.",
    ),
    signInSession: cookieName("kiwi_session", "Sign-in session cookie (Catapult session), read locally. Placeholder to confirm."),
    signInToken: cookieName("kiwi_token", "Sign-in token cookie (JWT), payload decoded locally. Placeholder to confirm."),
    loginRecord: cookieName(
      "sitetags_login",
      "Says this browser keeps a login record (identity.loginRecordKey, written when a visitor first signs in). Without it or a sign-in cookie, startup does not touch localStorage: a first visit's first storage access blocks the main thread (issue #21). It only mirrors the record, so no consent category.",
    ),
    loginRecordDays: days(1, 400, 400, "Login-record cookie lifetime, renewed at each login"),
  })
  .describe("Cookie names and lifetimes (parent domain, Secure, SameSite=Lax).");

export const FpidSchema = z
  .strictObject({
    src: z
      .string()
      .regex(/^\/[^\s]*$/, { message: "must be a path on the site's own host, starting with /" })
      .default("/fpid.js")
      .describe("The first-party id script, on the site's own host."),
    stageParam: z.string().min(1).default("stage").describe("Query parameter carrying the stage (the bundle's environment)."),
    cookie: z
      .string()
      .min(1)
      .default("kiwi_fpid")
      .describe("Cookie the script writes the first-party id to (FPID in the identity map). Placeholder to confirm."),
  })
  .describe("The first-party id script fpid.js, keyed by stage (spec section 7).");

export const IdentitySchema = z
  .strictObject({
    fpid: FpidSchema.prefault({}),
    credentials: CredentialsSchema.prefault({}),
    cookies: IdentityCookiesSchema.prefault({}),
    loginRecordKey: z
      .string()
      .min(1)
      .default("sitetags:login")
      .describe("Browser-storage key of the login record (first login, last logout). Placeholder to confirm."),
    securityCheckPage: regexSource(
      "security[-_ ]?check",
      "Previous page names that do not count a login (the sign-in security check). Placeholder to confirm.",
    ),
    thankYouPath: z.string().regex(/^\//).default("/iamweb/secure/thankYou").describe("Sign-up thank-you path: a completed registration."),
    webEventEvents: z
      .strictObject({
        login: SuccessEvent.optional(),
        registration: SuccessEvent.optional(),
        migration: SuccessEvent.optional(),
        "registration-match": SuccessEvent.optional(),
      })
      .optional()
      .describe(
        "The CB web event's success events (the provided value cbWebEventEvents): a counted login, and a completed registration, migration or registration match (with its login). None set: nothing counted.",
      ),
  })
  .describe("Identity profile, login state and startup credential settings.");

export type ConsentExtras = z.output<typeof ConsentExtrasSchema>;
export type CredentialSettings = z.output<typeof CredentialsSchema>;
export type IdentityCookieSettings = z.output<typeof IdentityCookiesSchema>;
export type IdentitySettings = z.output<typeof IdentitySchema>;
