/**
 * Log messages. The product spec's section 8 error catalogue word for word,
 * then the few runtime messages the catalogue gives no wording for.
 * One export per message (no enum, no object holding them all), so a bundle
 * keeps only the messages its code uses. Every one is logged somewhere (by
 * runtime code, or by a YAML `log` action): the catalogue entries nothing
 * logs, and why, are in docs/messages.md (test/unit/runtime-modules/core/messages-used.test.ts).
 */

/* ---- Runtime ---- */

export const NOT_AUTHORIZED = "not authorized for this domain";
/** Log code of NOT_AUTHORIZED. */
export const DYNAMIC_HOST_NOT_ALLOWED = "dynamic_host_not_allowed";

/* ---- Popup and voucher ---- */

export const NO_PAYLOAD_DATA = "no payload data found";
export const VOUCHERS_ORDER_ID_MISSING = "vouchers order ID missing";
export const VOUCHER_ACTION_NOT_RECOGNIZED = "voucher action type not recognized";
export const NO_EVENT_CODE_IN_LINK_TRACK = "no event code found in link track payload";
export const PATH_DOES_NOT_MATCH_ROUTE = "current path does not match the route pattern";
export const GUIDANCE_WIDGET_NOT_AVAILABLE = "guidance widget not available";
export const READY_TIMEOUT = "ready timeout";
export const SELECTOR_NOT_VALID = "selector not valid";
export const NO_TRIGGER_ELEMENT = "no trigger element";
/** "timed out after N attempts" */
export function timedOutAfter(attempts: number): string {
  return "timed out after " + attempts + " attempts";
}
export const NEED_VALID_DOM_SELECTOR = "need a valid DOM selector";
export const NEED_READY_FUNCTION = "need a ready function";
/** Logged with the missing field names as data (e.g. newTotalItemsInList, itemListSize). */
export const REQUIRED_DATA_MISSING = "required data missing";
export const NO_APPCUES_OBJECT = "no appcues object or identified variables";
export const MISSING_CONSENT_TYPE_OR_LIFECYCLE = "missing consentType or lifecycleEvent";
export const SCRIPT_EMBEDDING_FAILED = "script embedding failed";
export const TAGS_EMBED_SKIPPED_NO_CONSENT = "tags embed skipped when consent not given";

/* ---- Score ---- */

export const LATEST_SCORE_NOT_AVAILABLE = "Latest score not available";
export const ASMT_EVENT_ID_NOT_FOUND = "admin_event.asmt_event_id not found for this score";
export const NOT_ON_SCORE_VIEW_PAGE = "Not on a page where we expect to track SAT/PSAT Score Views";
export const NO_SCORES_FOUND = "No scores found to process/track";
export const UNRECOGNIZED_SCORE_VIEW = "Unrecognized Score View found (not tracked)";

/* ---- Analytics SDK ---- */

export const CONSENT_DECLINED = "The user declined consent.";
export const CONSENT_PENDING = "Consent is pending.";
export const IDENTITY_COOKIE_NOT_FOUND = "Identity cookie not found.";
/** "The server responded with a status code ... and response body" */
export function serverResponded(status: number, body: string): string {
  return "The server responded with a status code " + status + " and response body: " + body;
}
export const NETWORK_REQUEST_FAILED = "Network request failed.";
export const EVENT_CANCELED = "Event was canceled because the onBeforeEventSend callback returned false.";

/* ---- Application errors, video, sign-in ---- */

export const VIDEO_ERROR_2 = "Request contains an invalid parameter value (error 2)";
export const VIDEO_ERROR_5 = "Requested content cannot be played in an HTML5 player (error 5)";
export const VIDEO_ERROR_100 = "Requested video was not found (error 100)";
/** Video error codes 101 and 150. */
export const VIDEO_ERROR_EMBED_NOT_ALLOWED = "Owner of the requested video does not allow it to be played in embedded players";
export const VIDEO_API_NOT_LOADED = "YouTube IFrame API could not be loaded";
export const VIDEO_NOT_INITIALISED = "not-initialised";
/** "Invalid data requests are logged and return nothing": a player value that breaks the spec's rules for video data is left out of the push. */
export const VIDEO_DATA_INVALID = "invalid video data request";
export const SIGN_IN_DATA_NOT_FOUND = "Catapult/Levity Data Not Found";

/* ---- Runtime messages the catalogue gives no wording for ---- */

export const ALREADY_LOADED = "already loaded on this page";
export const BOOT_FAILED = "boot failed";
export const MODULE_FAILED = "module failed";
export const MODULE_CONFIG_MISSING = "module has no configuration";
export const COMMAND_FAILED = "command failed";
export const TAG_DISABLED = "tag disabled by query parameter";
export const TAG_LOADED = "tag loaded";
export const TAG_EXCLUDED_APP_ID = "tag excluded for this application id";
export const TAG_SAMPLED_OUT = "tag sampled out";
export const TAG_HOST_NOT_MATCHED = "host does not match the tag's host pattern";
export const WIDGET_NOT_LOADED = "widget not loaded";
export const CONSENT_HOOK_FAILED = "could not listen for consent changes";
/** The chat-flow popup (docs/tags.md): "Errors are logged and the popup skipped"; "Shows once per cookie"; "ignored within 1 second of the last". */
export const CHAT_FLOW_OPTIONS_INVALID = "popup options not valid; popup skipped";
export const CHAT_FLOW_ALREADY_SHOWN = "popup already shown (its cookie is set)";
export const CHAT_FLOW_RATE_LIMITED = "popup ignored: too soon after the last";
/** The page's onBeforeEventSend hook threw: the event is not sent (alloy rejects it with the error). */
export const BEFORE_SEND_HOOK_FAILED = "the onBeforeEventSend callback threw; the event was not sent";

/* ---- Consent ---- */

/** "Consent banner needs script source and domain attribute, else failed config check." */
export const CONSENT_BANNER_CONFIG_FAILED = "consent banner failed config check";
export const CONSENT_BANNER_TIMEOUT = "consent banner did not answer in time";

/** "Credential fetch failure after 3 attempts is logged and flow continues." */
export const CREDENTIAL_FETCH_FAILED = "credential fetch failed; continuing anonymous";

/** An identity push's value failed the spec's check ("Identity with non-empty-string id only"; "Graduation year must parse as a number (yyyy)"): `{ field, value }`, not sent. */
export const IDENTITY_VALUE_DROPPED = "identity value dropped";

/** The sampling rate decided whether this visitor's sampled tags run (spec section 9; docs/identity.md). */
export const SAMPLING_DECISION = "sampling decided";

/* ---- Rules, data elements, the data layer ---- */

/** "timeout error when a condition or action exceeds its limit" (spec section 8). */
export const STEP_TIMEOUT = "timeout error: a condition or action exceeded its limit";
/** A tag action past its limit because its consent has not come (debug level: it runs once consent comes). */
export const STEP_WAITS_FOR_CONSENT = "a tag action is waiting for consent past its limit";
export const RULE_CONDITION_FAILED = "rule condition failed";
export const RULE_ACTION_FAILED = "rule action failed";
export const DATA_ELEMENT_CIRCULAR = "data element circular reference";
export const DATA_ELEMENT_UNKNOWN = "unknown data element";
export const DATA_ELEMENT_FAILED = "data element could not be read";
export const DATA_LAYER_INVALID_PUSH = "data layer push ignored: not an object";
export const DATA_LAYER_LISTENER_FAILED = "data layer listener failed";
