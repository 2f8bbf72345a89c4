/**
 * SAT funnel log messages. The spec's error catalogue (section 8) has no
 * entry for this one. A push value the spec does not list (widget action,
 * photo step, fee waiver state, minutes left) is logged as the catalogue's
 * 'required data missing' with the field and value.
 */

/** A registration-step push (or the page's path) names no page of a SAT registration flow. */
export const NOT_A_FUNNEL_PAGE = "not a page of a SAT registration flow";