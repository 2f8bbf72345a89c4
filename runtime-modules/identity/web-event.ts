import { regexMatches } from "../core/match-page";

/** "CB web event: appId, type, isLogin, isReg, isMigration, isRegMatch." */
export interface CbWebEvent {
  appId: string;
  type: "login" | "registration" | "migration" | "registration-match" | "none";
  isLogin: boolean;
  isReg: boolean;
  isMigration: boolean;
  isRegMatch: boolean;
}

export interface WebEventInput {
  appId: string;
  /** A sign-in happened between the last page and this one. */
  justLoggedIn: boolean;
  previousPageName?: string;
  /** Flow code of the page name ("reg", "migrate", ...). */
  flow?: string;
  /** Page code of the page name ("success", ...). */
  step?: string;
  path: string;
  /** The identity profile's legacy flag. */
  legacy: boolean;
  /** identity.thankYouPath, "/iamweb/secure/thankYou" */
  thankYouPath: string;
  /** identity.securityCheckPage (regular expression source) */
  securityCheckPage: string;
}

function trimPath(path: string): string {
  return path.replace(/\/+$/, "").toLowerCase();
}

/** "migrate" for migrate flows (flow=idp-discovery is named migrate ...), "register" for registration flows (reg, register, professional variants). */
export function flowKind(flow: string | undefined): "migrate" | "register" | "other" {
  const f = (flow || "").toLowerCase();
  return /migrat/.test(f) ? "migrate" : /reg/.test(f) ? "register" : "other";
}

/**
 * "A login is counted unless the previous page name was a security check. A
 * registration counts when a register or migrate flow reaches success or
 * the thank-you path; then login is true. Legacy or migrate flows turn
 * registration into migration or a registration match." Read in that order:
 * a legacy account's registration is a migration, else a migrate flow's is
 * a registration match (placeholder to confirm).
 */
export function cbWebEvent(input: WebEventInput): CbWebEvent {
  const kind = flowKind(input.flow);
  const step = (input.step || "").toLowerCase();
  const completed = (kind !== "other" && step === "success") || (!!input.thankYouPath && trimPath(input.path) === trimPath(input.thankYouPath));
  const type: CbWebEvent["type"] = completed
    ? input.legacy
      ? "migration"
      : kind === "migrate"
        ? "registration-match"
        : "registration"
    : input.justLoggedIn && !(input.previousPageName && regexMatches(input.securityCheckPage, input.previousPageName.toLowerCase()))
      ? "login"
      : "none";
  return {
    appId: input.appId,
    type,
    isLogin: type !== "none",
    isReg: type === "registration",
    isMigration: type === "migration",
    isRegMatch: type === "registration-match",
  };
}
