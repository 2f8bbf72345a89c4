/**
 * SAT funnel log messages. The spec's error catalogue (section 8) has no
 * entry for these. A push value the spec does not list (widget action,
 * photo step, fee waiver state, minutes left) is logged as the catalogue's
 * 'required data missing' with the field and value.
 */

/** A registration-step push (or the page's path) names no page of a SAT registration flow. */
export const NOT_A_FUNNEL_PAGE = "not a page of a SAT registration flow";
/** A confirmation step (order-complete, the payment confirmation page) for an order already counted this session: no purchase, no pixel. */
export const ORDER_ALREADY_COUNTED = "order already counted this session";
