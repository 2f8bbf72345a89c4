/**
 * The simulated visitor: who they are (anonymous, a signed-in student (ECL),
 * a professional (EPL), a customer-service representative), whether they
 * were here before, and their consent. Turned into a PageSetup the page's
 * bridge applies before the bundle loads: sign-in cookies (the bundle's
 * identity.cookies names), returning-visitor cookies and storage, the
 * banner's globals and cookies, the GPC signal.
 *
 * Sign-in field names follow runtime-modules/identity/sign-in-facts.ts
 * (placeholders to confirm there, so here too).
 */
import type { PreviewConfig } from "./bundle-config";
import { groupsFor } from "./consent";
import { isObject, parseJson, type Obj } from "./json";
import type { PageSetup } from "./protocol";
import type { PreviewState } from "./state";

export const PERSONAS = {
  anonymous: { label: "Anonymous", facts: undefined },
  student: {
    label: "Student (ECL)",
    facts: {
      accountId: "100012345",
      hashedId: "9f2c5a0e7b",
      namespace: "st",
      profileType: "ECL",
      gradYear: "2027",
      orgId: "334455",
      orgName: "Kiwi Valley High School",
      sssOptIn: "Y",
      legacy: "N",
    },
  },
  professional: {
    label: "Professional (EPL)",
    facts: {
      accountId: "200067890",
      hashedId: "4b7d1e9a3c",
      namespace: "pf",
      profileType: "EPL",
      jobTitle: "School Counselor",
      jobTitleCode: "CNSLR",
      orgId: "334455",
      orgName: "Kiwi Valley High School",
      roPairs: [["R200", "334455"]],
    },
  },
  csr: {
    label: "Customer-service rep",
    facts: {
      accountId: "300011122",
      hashedId: "7c3a9d2f10",
      namespace: "pf",
      profileType: "EPL",
      jobTitle: "Customer Service Representative",
      csr: "Y",
      orgId: "KIWI-CS",
      orgName: "Kiwi Customer Service",
      tenantType: "internal",
    },
  },
} as const satisfies Record<string, { label: string; facts: Obj | undefined }>;

export type Persona = keyof typeof PERSONAS;

/** A fixed ECID for returning visitors (38 digits, as the edge issues them). */
export const RETURNING_ECID = "12345678901234567890123456789012345678";

function base64url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** An unsigned-looking JWT with this payload (the runtime decodes the payload locally; it never verifies). */
export function fakeJwt(payload: Obj): string {
  return `${base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }))}.${base64url(JSON.stringify(payload))}.cHJldmlldy1zaWduYXR1cmU`;
}

/** The payload of a JWT, or undefined. */
export function jwtPayload(token: string): Obj | undefined {
  const part = token.split(".")[1];
  if (!part) return undefined;
  try {
    const b64 = part.replace(/-/g, "+").replace(/_/g, "/");
    const binary = atob(b64 + "===".slice((b64.length + 3) % 4));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    const value = parseJson(new TextDecoder().decode(bytes));
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The edge's identity cookie value: URL-safe base64 of a protobuf whose field 1 is the ECID (shared/edge-protocol.md). */
export function identityCookieValue(ecid: string): string {
  return base64url(String.fromCharCode(0x0a, ecid.length) + ecid);
}

export function orgCookieId(orgId: string | undefined): string {
  return (orgId ?? "ORG@AdobeOrg").replace("@", "_");
}

function cookie(name: string, value: string, apex: string | undefined, maxAgeDays: number): string {
  const domain = apex ? `; domain=${apex}` : "";
  return `${name}=${encodeURIComponent(value)}; path=/${domain}; max-age=${Math.round(maxAgeDays * 86400)}; secure; samesite=lax`;
}

export interface SetupOptions {
  frame: string;
  parentOrigin: string;
  /** Data-layer pushes made before the bundle loads (the page template's). */
  dataLayer: unknown[];
  now: number;
}

/** The bridge's setup for this state and bundle. */
export function pageSetup(state: PreviewState, config: PreviewConfig, options: SetupOptions): PageSetup {
  const apex = config.apexDomain;
  const names = config.identity.cookies;
  const cookies: string[] = [];
  const storage: Record<string, string> = {};
  const day = 86400000;
  const consentGroups =
    state.consent === "pre"
      ? null
      : groupsFor(
          state.consent === "all" ? ["performance", "functional", "marketing", "programFunctional", "programMarketing"] : state.categories,
          config.consent.groups,
        );

  const persona = PERSONAS[state.visitor] ?? PERSONAS.anonymous;
  if (persona.facts) {
    const facts = persona.facts as Obj;
    cookies.push(cookie(String(names.signInSession ?? "kiwi_session"), JSON.stringify(facts), apex, 1));
    cookies.push(
      cookie(
        String(names.signInToken ?? "kiwi_token"),
        fakeJwt({ ...facts, sub: facts.accountId, iat: Math.floor(options.now / 1000), exp: Math.floor(options.now / 1000) + 3600 }),
        apex,
        1,
      ),
    );
  }
  if (state.visit === "returning") {
    const org = orgCookieId(config.analytics.orgId);
    cookies.push(cookie(`kndctr_${org}_identity`, identityCookieValue(RETURNING_ECID), apex, 390));
    cookies.push(cookie(`AMCV_${encodeURIComponent(config.analytics.orgId ?? "ORG@AdobeOrg")}`, `MCMID|${RETURNING_ECID}`, apex, 390));
    if (consentGroups && consentGroups.includes(config.consent.groups.performance ?? "C0002"))
      cookies.push(cookie(String(names.lifetime ?? "kiwi_lifetime"), `${options.now - 30 * day}`, apex, 60));
    const record = persona.facts
      ? { firstLogin: options.now - 7 * day, loggedIn: true }
      : { firstLogin: options.now - 7 * day, lastLogout: options.now - 2 * day };
    storage[config.identity.loginRecordKey ?? "sitetags:login"] = JSON.stringify(record);
    // The cookie that says the record is kept (identity.cookies.loginRecord): without it the bundle does not read it.
    cookies.push(cookie(String(names.loginRecord ?? "sitetags_login"), "1", apex, 400));
  }
  if (consentGroups) {
    // What the banner itself stores once a choice is recorded.
    cookies.push(cookie("OptanonAlertBoxClosed", new Date(options.now - (state.visit === "returning" ? 7 * day : 0)).toISOString(), apex, 365));
    cookies.push(
      cookie(
        "OptanonConsent",
        `isGpcEnabled=${state.gpc ? 1 : 0}&groups=${consentGroups
          .split(",")
          .filter(Boolean)
          .map((g) => `${g}:1`)
          .join(",")}`,
        apex,
        365,
      ),
    );
  }
  return {
    v: 1,
    frame: options.frame,
    parentOrigin: options.parentOrigin,
    fresh: state.visit === "first",
    cookies,
    localStorage: storage,
    consentGroups,
    gpc: state.gpc,
    debug: state.debug,
    dataLayerName: config.dataLayerName,
    dataLayer: options.dataLayer,
  };
}

export interface IdentityView {
  signedIn: boolean;
  accountType?: string;
  session?: Obj;
  token?: Obj;
  ecid?: string;
  cookies: Record<string, string>;
}

/** Identity as the page's cookies show it (sign-in session and token decoded, the edge's identity cookie). */
export function identityView(jar: Record<string, string>, config: Pick<PreviewConfig, "identity" | "analytics">): IdentityView {
  const names = config.identity.cookies;
  const decode = (v: string | undefined) => {
    if (v === undefined) return undefined;
    try {
      return decodeURIComponent(v);
    } catch {
      return v;
    }
  };
  const sessionText = decode(jar[String(names.signInSession ?? "kiwi_session")]);
  const tokenText = decode(jar[String(names.signInToken ?? "kiwi_token")]);
  const session = parseJson(sessionText);
  const token = tokenText ? jwtPayload(tokenText) : undefined;
  const org = orgCookieId(config.analytics.orgId);
  const identityCookie = decode(jar[`kndctr_${org}_identity`]);
  const amcv = decode(jar[`AMCV_${encodeURIComponent(config.analytics.orgId ?? "")}`]);
  let ecid: string | undefined;
  if (identityCookie) {
    try {
      const bin = atob(identityCookie.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((identityCookie.length + 3) % 4));
      if (bin.charCodeAt(0) === 0x0a) ecid = bin.slice(2, 2 + bin.charCodeAt(1));
    } catch {
      ecid = undefined;
    }
  }
  if (!ecid && amcv) ecid = /MCMID\|(\d+)/.exec(amcv)?.[1];
  const facts = { ...(isObject(session) ? session : {}), ...(token ?? {}) };
  const relevant = Object.fromEntries(
    Object.entries(jar).filter(([k]) => k.startsWith("kndctr_") || k.startsWith("AMCV_") || Object.values(names).map(String).includes(k)),
  );
  return {
    signedIn: !!(sessionText || tokenText),
    accountType: typeof facts.profileType === "string" ? facts.profileType : facts.namespace === "st" ? "ECL" : facts.namespace === "pf" ? "EPL" : undefined,
    session: isObject(session) ? session : undefined,
    token,
    ecid,
    cookies: relevant,
  };
}
