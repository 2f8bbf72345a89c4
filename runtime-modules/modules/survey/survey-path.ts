import { regexMatches } from "../../core/match-page";

/**
 * "The helpfulness survey loads only on ... trailing-slash paths": the path
 * ends with "/" and, when path patterns are configured, one of them matches.
 */
export function surveyPathAllowed(path: string, patterns: readonly string[]): boolean {
  return path.slice(-1) === "/" && (!patterns.length || patterns.some((pattern) => regexMatches(pattern, path)));
}
