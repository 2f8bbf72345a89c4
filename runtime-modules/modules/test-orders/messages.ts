/**
 * Test-order log messages. The spec's error catalogue (section 8) has no
 * entry for these; the wording is section 5's.
 */

export const ADMIN_NAME_NOT_RECOGNIZED = "administration name must be SAT School Day, PSAT/NMSQT, PSAT 10 or PSAT 8/9";
export const DATE_REQUIRED = "A date is required";
