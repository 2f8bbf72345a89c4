import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  DAY_MS,
  GVO_COOKIE,
  NOT_AVAIL,
  TBM_COOKIE,
  TBM_SECONDS,
  decodeHistory,
  emptyHistory,
  encodeHistory,
  historyChanged,
  readTouch,
  recordTouch,
  shouldReadTouch,
  tbmValue,
  trackingCode,
  trafficFields,
  valueOnce,
  type Touch,
  type TrafficHistory,
} from "../../../../runtime-modules/analytics/traffic-source";
import { rules } from "./rules";

const PAGE = "https://bigfuture.kiwi.example/colleges";
const touch = (url: string, referrer = "") => readTouch({ url, referrer, apexDomain: "kiwi.example" }, rules);
const T0 = Date.UTC(2025, 0, 1);
const days = 60;

describe("traffic source: this page view's touch", () => {
  it('"Tracking-code parameters: excmpid, sfmc_cid, s_kwcid" (in that priority)', () => {
    expect(trackingCode(PAGE + "?s_kwcid=AL!1!3&sfmc_cid=em-9&excmpid=sm-1", rules.trackingParams)).toEqual(["excmpid", "sm-1"]);
    expect(trackingCode(PAGE + "?s_kwcid=AL!1!3&sfmc_cid=em-9", rules.trackingParams)).toEqual(["sfmc_cid", "em-9"]);
    expect(trackingCode(PAGE + "?excmpid=%20", rules.trackingParams)).toBeUndefined();
    expect(trackingCode("not a url", rules.trackingParams)).toBeUndefined();
    // Only the query counts: none, or one after the fragment, holds no tracking code.
    expect(trackingCode(PAGE, rules.trackingParams)).toBeUndefined();
    expect(trackingCode(PAGE + "#?excmpid=sm-1", rules.trackingParams)).toBeUndefined();
    expect(trackingCode(PAGE + "?excmpid=sm-1#?excmpid=sm-2", rules.trackingParams)).toEqual(["excmpid", "sm-1"]);
  });
  it("a campaign code gives its channel by prefix", () => {
    expect(touch(PAGE + "?excmpid=mtg-college-fair-2025")).toEqual({ channel: "Offline Marketing", campaign: "mtg-college-fair-2025" });
    expect(touch(PAGE + "?excmpid=FB_spring")).toMatchObject({ channel: "Social Media", campaign: "FB_spring" });
  });
  it("unknown prefixes fall back by parameter: sfmc_cid Email, s_kwcid Paid Search, excmpid Other Campaigns (placeholders)", () => {
    expect(touch(PAGE + "?sfmc_cid=12345")!.channel).toBe("Email");
    expect(touch(PAGE + "?s_kwcid=AL!4321!3!abc")!.channel).toBe("Paid Search");
    expect(touch(PAGE + "?excmpid=spring")!.channel).toBe("Other Campaigns");
  });
  it('"email message, recipient and segment ids" come with a campaign', () => {
    expect(touch(PAGE + "?sfmc_cid=em-7&sfmc_mid=m1&sfmc_rid=r2&sfmc_sid=s3")).toEqual({
      channel: "Email",
      campaign: "em-7",
      emailMessage: "m1",
      recipientId: "r2",
      segmentId: "s3",
    });
    expect(touch(PAGE + "?sfmc_mid=m1")).toEqual({ channel: "Direct" });
  });
  it("no referrer and no tracking code is Direct", () => {
    expect(touch(PAGE)).toEqual({ channel: "Direct" });
  });
  it("an internal referrer starts no touch, unless there is a tracking code", () => {
    expect(touch(PAGE, "https://www.kiwi.example/sat")).toBeUndefined();
    expect(touch(PAGE, "https://bigfuture.kiwi.example/")).toBeUndefined();
    expect(
      readTouch(
        { url: PAGE, referrer: "https://a.kiwi-partner.example/", apexDomain: "kiwi.example" },
        { ...rules, internalDomains: ["kiwi-partner.example"] },
      ),
    ).toBeUndefined();
    expect(touch(PAGE + "?excmpid=em-1", "https://www.kiwi.example/")).toEqual({ channel: "Email", campaign: "em-1" });
  });
  it('"Partner domains (five)": a partner referrer is Partner Sites, with the partner', () => {
    for (const d of rules.partnerDomains)
      expect(touch(PAGE, "https://www." + d + "/x")).toMatchObject({ channel: "Partner Sites", partner: d, referringDomain: d });
  });
  it("a search-engine referrer is Organic Search, with its keywords (Not Avail when hidden)", () => {
    expect(touch(PAGE, "https://www.bing.com/search?q=SAT+Dates")).toEqual({
      channel: "Organic Search",
      referrer: "https://www.bing.com/search?q=SAT+Dates",
      referringDomain: "bing.com",
      keywords: "sat dates",
    });
    expect(touch(PAGE, "https://www.google.com/")).toMatchObject({ channel: "Organic Search", keywords: NOT_AVAIL });
    expect(touch(PAGE, "https://search.yahoo.com/search?p=psat")).toMatchObject({ keywords: "psat" });
  });
  it("only the engine's own host is a search engine: other services below its domain are Referring Domains", () => {
    expect(touch(PAGE, "https://classroom.google.com/c/abc")).toMatchObject({ channel: "Referring Domains", referringDomain: "classroom.google.com" });
    expect(touch(PAGE, "https://mail.yahoo.com/d/folders/1")).toMatchObject({ channel: "Referring Domains" });
    expect(touch(PAGE, "https://docs.google.com/document/d/1")).toMatchObject({ channel: "Referring Domains" });
    expect(touch(PAGE, "https://www.google.co.uk/")).toMatchObject({ channel: "Organic Search", referringDomain: "google.co.uk" });
    expect(touch(PAGE, "https://google.com/search?q=ap")).toMatchObject({ channel: "Organic Search", keywords: "ap" });
  });
  it("a referrer whose address may not be sent (an at-sign in its path) is still classified by its host, without the address", () => {
    expect(touch(PAGE, "https://news.example/authors/jane@news.example/story")).toEqual({ channel: "Referring Domains", referringDomain: "news.example" });
    expect(touch(PAGE, "https://www.bing.com/profile/kid@mail.example")).toMatchObject({ channel: "Organic Search", referringDomain: "bing.com" });
    expect(touch(PAGE, `https://${new URL(PAGE).hostname}/me/kid@mail.example`)).toBeUndefined();
  });
  it("any other referrer is Referring Domains; a campaign code still decides the channel", () => {
    expect(touch(PAGE, "https://news.example/a")).toEqual({
      channel: "Referring Domains",
      referrer: "https://news.example/a",
      referringDomain: "news.example",
    });
    expect(touch(PAGE + "?excmpid=sm-x", "https://news.example/a")).toMatchObject({
      channel: "Social Media",
      campaign: "sm-x",
      referringDomain: "news.example",
    });
  });
  it("the referrer is redacted and never carries an email address", () => {
    expect(touch(PAGE, "https://news.example/a?regNo=55&x=1")!.referrer).toBe("https://news.example/a?regNo=[redacted]&x=1");
    expect(touch(PAGE, "https://news.example/a?mail=j@x.example")!.referrer).toBe("https://news.example/a");
  });
  it('a campaign never holds the path delimiter ^ and is cut to 100 ("lists truncated to 100 characters")', () => {
    expect(touch(PAGE + "?excmpid=em-a%5Eb")!.campaign).toBe("em-ab");
    expect(touch(PAGE + "?excmpid=em-" + "x".repeat(200))!.campaign).toHaveLength(100);
  });
});

describe("traffic source: history", () => {
  const email: Touch = { channel: "Email", campaign: "em-1" };
  const social: Touch = { channel: "Social Media", campaign: "sm-2" };
  const direct: Touch = { channel: "Direct" };
  const organic: Touch = { channel: "Organic Search", keywords: NOT_AVAIL };

  it('"a visit with a new campaign different from the previous is recorded"', () => {
    let h = recordTouch(emptyHistory(), email, T0, days);
    h = recordTouch(h, social, T0 + 1, days);
    expect(h).toEqual({ channels: ["Email", "Social Media"], campaigns: ["em-1", "sm-2"], first: "Email", latest: "Social Media", t: T0 + 1 });
    const again = recordTouch(h, social, T0 + 2, days);
    expect(again).toBe(h);
    expect(recordTouch(h, { channel: "Email", campaign: "em-3" }, T0 + 3, days).campaigns).toEqual(["em-1", "sm-2", "em-3"]);
  });
  it('"direct visits do not overwrite an earlier non-direct one"', () => {
    const h = recordTouch(emptyHistory(), email, T0, days);
    expect(recordTouch(h, direct, T0 + DAY_MS, days)).toBe(h);
    expect(trafficFields(direct, recordTouch(h, direct, T0 + DAY_MS, days))).toMatchObject({ latestChannel: "Email", firstChannel: "Email" });
  });
  it("a first direct visit is recorded; later touches follow it", () => {
    const h = recordTouch(emptyHistory(), direct, T0, days);
    expect(h).toEqual({ channels: ["Direct"], campaigns: [], first: "Direct", latest: "Direct", t: T0 });
    expect(recordTouch(h, organic, T0 + 1, days)).toMatchObject({ channels: ["Direct", "Organic Search"], first: "Direct", latest: "Organic Search" });
  });
  it("a touch without campaign is recorded when its channel differs from the latest", () => {
    const h = recordTouch(emptyHistory(), organic, T0, days);
    expect(recordTouch(h, organic, T0 + 1, days)).toBe(h);
    expect(recordTouch(h, { channel: "Referring Domains" }, T0 + 1, days).latest).toBe("Referring Domains");
  });
  it("an internal page view (no touch) changes nothing", () => {
    const h = recordTouch(emptyHistory(), email, T0, days);
    expect(recordTouch(h, undefined, T0 + DAY_MS, days)).toBe(h);
  });
  it('"history expires after 60 days"', () => {
    const h = recordTouch(emptyHistory(), email, T0, days);
    expect(recordTouch(h, undefined, T0 + 60 * DAY_MS, days)).toBe(h);
    expect(recordTouch(h, undefined, T0 + 60 * DAY_MS + 1, days)).toEqual(emptyHistory());
    expect(recordTouch(h, direct, T0 + 61 * DAY_MS, days)).toEqual({
      channels: ["Direct"],
      campaigns: [],
      first: "Direct",
      latest: "Direct",
      t: T0 + 61 * DAY_MS,
    });
    expect(historyChanged(h, recordTouch(h, undefined, T0 + 61 * DAY_MS, days))).toBe(true);
  });
  it('"traffic path delimiter ^, lists truncated to 100 characters" (oldest entries dropped)', () => {
    let h = emptyHistory();
    for (let n = 0; n < 30; n++) h = recordTouch(h, { channel: n % 2 ? "Email" : "SMS", campaign: "em-campaign-" + n }, T0 + n, days);
    const path = trafficFields(undefined, h).campaignPath;
    expect(path.length).toBeLessThanOrEqual(100);
    expect(path.split("^").pop()).toBe("em-campaign-29");
    expect(h.first).toBe("SMS");
    expect(h.channels.join("^").length).toBeLessThanOrEqual(100);
  });
  it("the channel list does not repeat the same channel twice in a row", () => {
    let h = recordTouch(emptyHistory(), email, T0, days);
    h = recordTouch(h, { channel: "Email", campaign: "em-2" }, T0 + 1, days);
    expect(h.channels).toEqual(["Email"]);
    expect(h.campaigns).toEqual(["em-1", "em-2"]);
  });
  it("rules hold for any sequence of touches: lists fit, latest is the last recorded, a direct touch never replaces a non-direct latest, expiry resets", () => {
    const t = fc.oneof(
      fc.constant(undefined),
      fc.constant<Touch>({ channel: "Direct" }),
      fc.record({
        channel: fc.constantFrom("Email", "SMS", "Organic Search", "Referring Domains"),
        campaign: fc.option(fc.stringMatching(/^[a-z]{2}-[a-z0-9^]{1,30}$/), { nil: undefined }),
      }),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(t, fc.integer({ min: 0, max: 70 * DAY_MS })), { maxLength: 40 }), (steps) => {
        let h: TrafficHistory = emptyHistory();
        let now = T0;
        for (const [x, dt] of steps) {
          now += dt;
          const prev = h;
          const expired = !!prev.latest && now - prev.t > days * DAY_MS;
          h = recordTouch(h, x as Touch | undefined, now, days);
          expect(h.channels.join("^").length).toBeLessThanOrEqual(100);
          expect(h.campaigns.join("^").length).toBeLessThanOrEqual(100);
          if (h.latest) expect(h.channels[h.channels.length - 1]).toBe(h.latest);
          if (x && x.channel === "Direct" && prev.latest && prev.latest !== "Direct" && !expired) expect(h.latest).toBe(prev.latest);
          if (expired && !x) expect(h).toEqual(emptyHistory());
          if (h.first && !expired) expect(h.first).toBe(prev.first || h.first);
          expect(decodeHistory(encodeHistory(h))).toEqual(h);
        }
      }),
    );
  });
});

describe("traffic source: cookies", () => {
  it('"session cookie (JSON of marketing channels, campaigns, first and latest channel)": encode and decode', () => {
    const h = recordTouch(emptyHistory(), { channel: "Email", campaign: "em-1" }, T0, days);
    const json = encodeHistory(h);
    expect(JSON.parse(json)).toEqual({ channels: ["Email"], campaigns: ["em-1"], first: "Email", latest: "Email", t: T0 });
    expect(decodeHistory(json)).toEqual(h);
  });
  it("a malformed cookie reads as an empty history", () => {
    for (const bad of [undefined, "", "{", "null", "[]", '"x"', '{"channels":"Email"}', '{"t":"soon"}'])
      expect(decodeHistory(bad), String(bad)).toEqual(emptyHistory());
    expect(decodeHistory('{"channels":["Email",3,"a^b",""],"campaigns":[null],"first":7,"latest":"Email","t":5}')).toEqual({
      channels: ["Email", "ab"],
      campaigns: [],
      latest: "Email",
      t: 5,
    });
    fc.assert(
      fc.property(fc.string(), (s) => {
        const h = decodeHistory(s);
        expect(Array.isArray(h.channels) && Array.isArray(h.campaigns) && typeof h.t === "number").toBe(true);
      }),
    );
  });
  it("the cookie is written only when the history changed", () => {
    const h = recordTouch(emptyHistory(), { channel: "Email", campaign: "em-1" }, T0, days);
    expect(historyChanged(h, recordTouch(h, undefined, T0 + 1, days))).toBe(false);
    expect(historyChanged(h, recordTouch(h, { channel: "SMS", campaign: "tx-1" }, T0 + 1, days))).toBe(true);
  });
  it('"channel cookie s_tbm (30 minutes)", "channel cookie 1800 s": it holds the visit\'s channel; while it is there only a tracking code starts a touch', () => {
    expect(TBM_COOKIE).toBe("s_tbm");
    expect(TBM_SECONDS).toBe(1800);
    expect(shouldReadTouch(undefined, PAGE, rules.trackingParams)).toBe(true);
    expect(shouldReadTouch("Email", PAGE, rules.trackingParams)).toBe(false);
    expect(shouldReadTouch("Email", PAGE + "?excmpid=sm-1", rules.trackingParams)).toBe(true);
    expect(tbmValue(emptyHistory())).toBe("Direct");
    expect(tbmValue(recordTouch(emptyHistory(), { channel: "SMS", campaign: "tx-1" }, T0, days))).toBe("SMS");
  });
  it('"value-once cookie s_gvo_cm": a campaign is sent once, then not while the cookie holds it', () => {
    expect(GVO_COOKIE).toBe("s_gvo_cm");
    expect(valueOnce("em-1", undefined)).toEqual({ value: "em-1", write: true });
    expect(valueOnce("em-1", "em-1")).toEqual({ value: "", write: false });
    expect(valueOnce("em-2", "em-1")).toEqual({ value: "em-2", write: true });
    expect(valueOnce(undefined, "em-1")).toEqual({ value: "", write: false });
  });
});

describe("traffic source: fields", () => {
  it('"Traffic source: campaign, channel, referrer, referring domain, partner, keywords, campaign path, email message, recipient and segment ids, first and latest channel"', () => {
    const t = touch(PAGE + "?excmpid=em-2&sfmc_mid=m&sfmc_rid=r&sfmc_sid=s", "https://www." + rules.partnerDomains[0] + "/p")!;
    let h = recordTouch(emptyHistory(), { channel: "SMS", campaign: "tx-1" }, T0, days);
    h = recordTouch(h, t, T0 + 1, days);
    expect(trafficFields(t, h)).toEqual({
      campaign: "em-2",
      channel: "Email",
      referrer: "https://www." + rules.partnerDomains[0] + "/p",
      referringDomain: rules.partnerDomains[0],
      partner: rules.partnerDomains[0],
      emailMessage: "m",
      recipientId: "r",
      segmentId: "s",
      campaignPath: "tx-1^em-2",
      firstChannel: "SMS",
      latestChannel: "Email",
    });
  });
  it("without a touch only the history's fields", () => {
    expect(trafficFields(undefined, emptyHistory())).toEqual({ campaignPath: "" });
  });
});
