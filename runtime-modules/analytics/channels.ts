import { own } from "./lookup";

/** Section 9 "Channels": campaign code prefix → marketing channel. */
export const CHANNELS: Readonly<Record<string, string>> = {
  em: "Email",
  ie: "Email",
  zo: "Email",
  ex: "External Email",
  tx: "SMS",
  tr: "Triggered",
  mtg: "Offline Marketing",
  cb: "Offline Marketing",
  dm: "Offline Marketing",
  oc: "Digital Media",
  sm: "Social Media",
  fb: "Social Media",
  ob: "Outbound Callers",
  ph: "Push Notifications",
  da: "Digital Applications",
  kp: "Google Knowledge Panels",
  og: "Organic Search",
  pt: "Partner Sites",
  af: "Affiliates",
  vt: "Vanity URLs",
};

/** Channels for touches without a (known) campaign code: placeholders to confirm (not in the spec's table). */
export const DIRECT = "Direct";
export const REFERRING_DOMAINS = "Referring Domains";
export const OTHER_CAMPAIGNS = "Other Campaigns";
export const PAID_SEARCH = "Paid Search";

/**
 * A campaign code's prefix: its leading letters, lower case ("em-2024-reminder"
 * → "em", "MTG_fair" → "mtg", "mtg891-pr-1" → "mtg", "SM068-PR-1-LI" → "sm"):
 * codes often number the campaign right after the channel letters.
 */
export function campaignPrefix(campaign: string): string {
  return /^[a-z]*/.exec(campaign.trim().toLowerCase())![0];
}

/** The channel of a campaign code: its prefix looked up in the channel table; undefined when unknown. */
export function channelOf(campaign: string): string | undefined {
  return own(CHANNELS, campaignPrefix(campaign));
}
