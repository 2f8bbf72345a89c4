import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CHANNELS, campaignPrefix, channelOf } from "../../../../runtime-modules/analytics/channels";

describe("channels", () => {
  describe('"Channels: Email (em, ie, zo), External Email (ex), SMS (tx), Triggered (tr), Offline Marketing (mtg, cb, dm), Digital Media (oc), Social Media (sm, fb), Outbound Callers (ob), Push Notifications (ph), Digital Applications (da), Google Knowledge Panels (kp), Organic Search (og), Partner Sites (pt), Affiliates (af), Vanity URLs (vt)"', () => {
    const table: Array<[string, string[]]> = [
      ["Email", ["em", "ie", "zo"]],
      ["External Email", ["ex"]],
      ["SMS", ["tx"]],
      ["Triggered", ["tr"]],
      ["Offline Marketing", ["mtg", "cb", "dm"]],
      ["Digital Media", ["oc"]],
      ["Social Media", ["sm", "fb"]],
      ["Outbound Callers", ["ob"]],
      ["Push Notifications", ["ph"]],
      ["Digital Applications", ["da"]],
      ["Google Knowledge Panels", ["kp"]],
      ["Organic Search", ["og"]],
      ["Partner Sites", ["pt"]],
      ["Affiliates", ["af"]],
      ["Vanity URLs", ["vt"]],
    ];
    for (const [channel, codes] of table)
      it(channel, () => {
        for (const code of codes) expect(channelOf(code + "-2024-spring")).toBe(channel);
      });
    it("the table is exactly these codes", () => {
      expect(Object.keys(CHANNELS).sort()).toEqual(table.flatMap((t) => t[1]).sort());
    });
  });
  it("a campaign code's channel is its prefix before the first separator, in any case", () => {
    expect(campaignPrefix("em_2024_sat")).toBe("em");
    expect(campaignPrefix("MTG.fair")).toBe("mtg");
    expect(campaignPrefix(" fb|spring ")).toBe("fb");
    expect(channelOf("TX:reminder")).toBe("SMS");
    expect(channelOf("vt")).toBe("Vanity URLs");
  });
  it("a number right after the channel letters is part of the campaign, not of the prefix (mtg891-pr-1, SM068-PR-1-LI)", () => {
    expect(campaignPrefix("mtg891-pr-1-m13902-pb")).toBe("mtg");
    expect(channelOf("mtg891-pr-1-m13902-pb")).toBe("Offline Marketing");
    expect(channelOf("SM068-PR-1-LI")).toBe("Social Media");
    expect(channelOf("em2024reminder")).toBe("Email");
    expect(channelOf("2024-em")).toBeUndefined();
  });
  it("unknown prefixes have no channel (also Object.prototype names)", () => {
    expect(channelOf("email-2024")).toBeUndefined();
    expect(channelOf("constructor-1")).toBeUndefined();
    expect(channelOf("")).toBeUndefined();
    fc.assert(
      fc.property(fc.string(), (code) => {
        const c = channelOf(code);
        expect(c === undefined || Object.values(CHANNELS).includes(c)).toBe(true);
      }),
    );
  });
});
