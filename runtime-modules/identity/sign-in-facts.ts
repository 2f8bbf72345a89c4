/**
 * The sign-in fields the identity profile reads. Names as in the session
 * JSON and the token payload: placeholder to confirm against the real
 * sign-in service.
 */
export interface SignInFacts {
  accountId?: unknown;
  hashedId?: unknown;
  /** "st" or "pf" */
  namespace?: unknown;
  /** "ECL" or "EPL" */
  profileType?: unknown;
  orgId?: unknown;
  orgName?: unknown;
  gradYear?: unknown;
  jobTitle?: unknown;
  jobTitleCode?: unknown;
  legacy?: unknown;
  sssOptIn?: unknown;
  /** Customer-service representative flag. */
  csr?: unknown;
  /** Role id and organisation id pairs. */
  roPairs?: unknown;
  eodbId?: unknown;
  tenantType?: unknown;
  crmId?: unknown;
  aaCustomId?: unknown;
}

export const FACT_KEYS = [
  "accountId",
  "hashedId",
  "namespace",
  "profileType",
  "orgId",
  "orgName",
  "gradYear",
  "jobTitle",
  "jobTitleCode",
  "legacy",
  "sssOptIn",
  "csr",
  "roPairs",
  "eodbId",
  "tenantType",
  "crmId",
  "aaCustomId",
] as const;

function present(value: unknown): boolean {
  return value !== undefined && value !== null && value !== "";
}

/** The facts of the session and the token payload; a token value wins when present. */
export function mergeSignInFacts(session: Record<string, unknown> | null, token: Record<string, unknown> | null): SignInFacts {
  const facts: SignInFacts = {};
  for (const key of FACT_KEYS) {
    const value = token && present(token[key]) ? token[key] : session ? session[key] : undefined;
    if (present(value)) facts[key] = value;
  }
  return facts;
}

/** A yes/no field: true, "true", "y", "yes", "1" or 1 (any case) is yes. */
export function flag(value: unknown): boolean {
  return value === true || value === 1 || (typeof value === "string" && /^(true|y|yes|1)$/i.test(value.trim()));
}

/** A text field: a non-empty string (trimmed) or a finite number as text; else undefined. */
export function textOf(value: unknown): string | undefined {
  if (typeof value === "number") return isFinite(value) ? String(value) : undefined;
  return typeof value === "string" && value.trim() ? value.trim() : undefined;
}
