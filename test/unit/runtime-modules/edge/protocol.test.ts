/**
 * The wire format's pure functions (runtime-modules/edge/protocol.ts), each
 * checked against shared/edge-protocol.md and, where alloy has the same
 * function, against @adobe/alloy-core's own source as the oracle.
 */
import { describe, expect, it, vi } from "vitest";
import fc from "fast-check";
import alloyRetryDelay from "@adobe/alloy-core/core/network/getRequestRetryDelay.js";
import alloyPrepareOverrides from "@adobe/alloy-core/utils/prepareConfigOverridesForEdge.js";
import alloyLocalTime from "@adobe/alloy-core/utils/toISOStringLocal.js";
import alloyFnv from "@adobe/alloy-core/utils/fnv1a32Hex.js";
import alloyLinkIdentity from "@adobe/alloy-core/components/Identity/injectAddQueryStringIdentityToPayload.js";
import {
  clampQueueTime,
  cleanOverrides,
  contextXdm,
  cookieText,
  edgeUrl,
  fnv1a32Hex,
  ianaTimezone,
  legacyEcid,
  linkEcid,
  LINK_TTL_SECONDS,
  localTime,
  responseFailure,
  retryDelay,
  thirdPartyBrowser,
  utf8Length,
} from "../../../../runtime-modules/edge/protocol";
import { uuid4 } from "../../../../runtime-modules/edge/uuid";

describe("edgeUrl", () => {
  it("https://{edgeDomain}/{edgeBasePath}/v1/{action}?configId=…&requestId=…", () => {
    expect(edgeUrl("edge.kiwi.example", "ee", undefined, "interact", "ds-1", "r-1")).toBe(
      "https://edge.kiwi.example/ee/v1/interact?configId=ds-1&requestId=r-1",
    );
  });
  it("puts the location hint between the base path and v1", () => {
    expect(edgeUrl("edge.kiwi.example", "ee", "or2", "collect", "ds-1", "r-1")).toBe("https://edge.kiwi.example/ee/or2/v1/collect?configId=ds-1&requestId=r-1");
    expect(edgeUrl("edge.kiwi.example", "ee", "t34", "privacy/set-consent", "ds", "r")).toBe(
      "https://edge.kiwi.example/ee/t34/v1/privacy/set-consent?configId=ds&requestId=r",
    );
  });
  it("does not URL-encode query values", () => {
    expect(edgeUrl("h", "ee", "", "interact", "a:b/c", "x y")).toBe("https://h/ee/v1/interact?configId=a:b/c&requestId=x y");
  });
});

describe("retryDelay", () => {
  it("1000 + 1000·n ms with ±30 % uniform jitter (injected random)", () => {
    expect(retryDelay(null, 0, () => 0, 0)).toBe(700);
    expect(retryDelay(null, 0, () => 0.5, 0)).toBe(1000);
    expect(retryDelay(null, 0, () => 0.9999999, 0)).toBe(1300);
    expect(retryDelay(null, 1, () => 0.5, 0)).toBe(2000);
    expect(retryDelay(null, 2, () => 0, 0)).toBe(2100);
    expect(retryDelay(null, 2, () => 1, 0)).toBe(3900);
  });
  it("stays within the jitter band for any random value (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (n, r) => {
        const target = 1000 + 1000 * n;
        const d = retryDelay(undefined, n, () => r, 0);
        return d >= Math.round(target * 0.7) && d <= Math.round(target * 1.3);
      }),
    );
  });
  it("Retry-After in seconds", () => {
    expect(retryDelay("2", 0, () => 0.5, 0)).toBe(2000);
    expect(retryDelay("0", 2, () => 0.5, 0)).toBe(0);
  });
  it("Retry-After as an HTTP date: the date minus now, never negative", () => {
    const now = Date.parse("Wed, 21 Oct 2026 07:28:00 GMT");
    expect(retryDelay("Wed, 21 Oct 2026 07:28:03 GMT", 0, () => 0.5, now)).toBe(3000);
    expect(retryDelay("Wed, 21 Oct 2026 07:27:00 GMT", 0, () => 0.5, now)).toBe(0);
    expect(retryDelay("not a date", 0, () => 0.5, now)).toBe(0);
  });
  it("equals alloy's getRequestRetryDelay for the same inputs", () => {
    const random = vi.spyOn(Math, "random");
    try {
      for (const [header, retries, r] of [
        [null, 0, 0.1],
        [null, 1, 0.7],
        [null, 2, 0.33],
        ["3", 1, 0.5],
        ["Wed, 21 Oct 2099 07:28:00 GMT", 0, 0.5],
      ] as const) {
        random.mockReturnValue(r);
        const now = Date.now();
        const ours = retryDelay(header, retries, () => r, now);
        const theirs = alloyRetryDelay({ response: { getHeader: () => header }, retriesAttempted: retries });
        expect(Math.abs(ours - theirs)).toBeLessThanOrEqual(header && header.length > 3 ? 50 : 0);
      }
    } finally {
      random.mockRestore();
    }
  });
});

describe("clampQueueTime", () => {
  it("clamps to 0–300000", () => {
    expect(clampQueueTime(-5)).toBe(0);
    expect(clampQueueTime(1234)).toBe(1234);
    expect(clampQueueTime(300001)).toBe(300000);
    expect(clampQueueTime(9e9)).toBe(300000);
  });
});

describe("cleanOverrides (meta.configOverrides)", () => {
  it("removes null, empty strings, empty arrays, empty objects and enabled: true", () => {
    const input = {
      com_adobe_analytics: { reportSuites: ["rs1"], enabled: true },
      com_adobe_target: { propertyToken: "" },
      com_adobe_identity: { idSyncContainerId: 0 },
      com_adobe_experience_platform: { enabled: false, datasets: { event: { datasetId: null } }, list: [] },
    };
    expect(cleanOverrides(input)).toEqual({
      com_adobe_analytics: { reportSuites: ["rs1"] },
      com_adobe_identity: { idSyncContainerId: 0 },
      com_adobe_experience_platform: { enabled: false },
    });
    expect(cleanOverrides({ a: { b: null } })).toBeUndefined();
    expect(cleanOverrides(undefined)).toBeUndefined();
  });
  it('spec section 7, "event forwarding": the datastream\'s event-forwarding service (com_adobe_launch_ssf) is on by the datastream; a site or environment keeps its events out with enabled: false, which goes on the wire; enabled: true is the default and, as in alloy, is not sent (docs/edge.md)', () => {
    const base = { com_adobe_analytics: { reportSuites: ["rs1"] } };
    expect(cleanOverrides({ ...base, com_adobe_launch_ssf: { enabled: false } })).toEqual({ ...base, com_adobe_launch_ssf: { enabled: false } });
    expect(cleanOverrides({ ...base, com_adobe_launch_ssf: { enabled: true } })).toEqual(base);
  });
  it("equals alloy's prepareConfigOverridesForEdge (null for nothing left)", () => {
    const samples = [
      { com_adobe_analytics: { reportSuites: ["a", "b"] }, x: { enabled: true, y: "" } },
      { a: { b: { c: 1, d: false, e: "s", f: [], g: null } } },
      { a: {} },
    ];
    for (const s of samples) expect(cleanOverrides(s) ?? null).toEqual(alloyPrepareOverrides(s));
  });
});

describe("responseFailure", () => {
  it("a 2xx with a handle array, or a 204 without body, is a success", () => {
    expect(responseFailure(200, '{"handle":[]}', { handle: [] })).toBeUndefined();
    expect(responseFailure(207, "{}", { handle: [], warnings: [{}] })).toBeUndefined();
    expect(responseFailure(204, "", undefined)).toBeUndefined();
  });
  it("anything else is logged with the status and body (or no response body)", () => {
    expect(responseFailure(503, "busy", undefined)).toBe("The server responded with a status code 503 and response body: busy");
    expect(responseFailure(200, "{}", {})).toBe("The server responded with a status code 200 and response body: {}");
    expect(responseFailure(200, "", undefined)).toBe("The server responded with a status code 200 and no response body.");
    expect(responseFailure(400, "", undefined)).toBe("The server responded with a status code 400 and no response body.");
  });
});

describe("localTime and contextXdm", () => {
  it("local time with its offset, as alloy's toISOStringLocal", () => {
    for (const t of [0, 1_700_000_000_123, Date.UTC(2026, 0, 1, 0, 0, 0, 7)]) expect(localTime(new Date(t))).toBe(alloyLocalTime(new Date(t)));
    expect(localTime(new Date(2026, 2, 1, 9, 5, 3, 7))).toMatch(/^2026-03-01T09:05:03\.007[+-]\d\d:\d\d$/);
  });
  it("local time with its offset, as alloy's toISOStringLocal, at any instant of years 1970-2100 (DST changes included)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), (t) => localTime(new Date(t)) === alloyLocalTime(new Date(t))),
      { numRuns: 2000 },
    );
  });
  it("the default XDM paths of the protocol", () => {
    const win = {
      screen: { width: 1440, height: 900, orientation: { type: "landscape-primary" } },
      document: { documentElement: { clientWidth: 1200, clientHeight: 700 } },
      matchMedia: () => ({ matches: false }),
    } as unknown as Window;
    const date = new Date(Date.UTC(2026, 4, 2, 10, 0, 0));
    const xdm = contextXdm(win, { href: "https://www.kiwi.example/a?b=1", referrer: "https://search.example/" }, date, "1.2.3");
    expect(xdm).toEqual({
      web: { webPageDetails: { URL: "https://www.kiwi.example/a?b=1" }, webReferrer: { URL: "https://search.example/" } },
      device: { screenHeight: 900, screenWidth: 1440, screenOrientation: "landscape" },
      environment: { type: "browser", browserDetails: { viewportWidth: 1200, viewportHeight: 700 } },
      placeContext: {
        localTimezoneOffset: date.getTimezoneOffset(),
        localTime: localTime(date),
        ianaTimezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      },
      timestamp: "2026-05-02T10:00:00.000Z",
      implementationDetails: { name: "sitetags", version: "1.2.3", environment: "browser" },
    });
  });
  it("the viewport from visualViewport where there is one (no forced layout), rounded; clientWidth otherwise", () => {
    let clientReads = 0;
    const root = {
      get clientWidth() {
        clientReads++;
        return 1200;
      },
      get clientHeight() {
        clientReads++;
        return 700;
      },
    };
    const win = {
      screen: { width: 1440, height: 900, orientation: { type: "landscape-primary" } },
      document: { documentElement: root },
      visualViewport: { width: 1265.4, height: 719.6 },
    } as unknown as Window;
    expect(contextXdm(win, { href: "", referrer: "" }, new Date(), "v").environment).toEqual({
      type: "browser",
      browserDetails: { viewportWidth: 1265, viewportHeight: 720 },
    });
    expect(clientReads).toBe(0);
  });
  it("screen orientation from the media query when screen.orientation is missing", () => {
    const win = {
      screen: { width: 400, height: 800 },
      document: { documentElement: { clientWidth: 1, clientHeight: 2 } },
      matchMedia: (q: string) => ({ matches: q === "(orientation: portrait)" }),
    } as unknown as Window;
    expect(contextXdm(win, { href: "", referrer: "" }, new Date(), "v").device.screenOrientation).toBe("portrait");
  });
});

describe("cookies", () => {
  it("cookieText writes a state:store item on the apex domain, path /, expiry now + maxAge, Secure with SameSite None", () => {
    const now = Date.UTC(2026, 0, 1);
    expect(cookieText("kndctr_ABC_AdobeOrg_identity", "CiYxMjM0", "kiwi.example", 34128000, "None", now)).toBe(
      "kndctr_ABC_AdobeOrg_identity=CiYxMjM0; path=/; domain=kiwi.example; expires=" +
        new Date(now + 34128000 * 1000).toUTCString() +
        "; samesite=None; secure",
    );
    expect(cookieText("kndctr_ABC_AdobeOrg_cluster", "or2", "kiwi.example", 1800, "Lax", now)).toBe(
      "kndctr_ABC_AdobeOrg_cluster=or2; path=/; domain=kiwi.example; expires=" + new Date(now + 1800000).toUTCString() + "; samesite=Lax",
    );
    expect(cookieText("x", "y", "", undefined, undefined, now)).toBe("x=y; path=/");
  });
  it("encodes names and values as js-cookie (alloy) does", () => {
    expect(cookieText("kndctr_ABC_AdobeOrg_consent", "general=in", "", undefined, undefined, 0)).toBe("kndctr_ABC_AdobeOrg_consent=general=in; path=/");
    expect(cookieText("AMCV_ABC@AdobeOrg", "MCMID|123", "", undefined, undefined, 0)).toBe("AMCV_ABC%40AdobeOrg=MCMID|123; path=/");
    expect(cookieText("n", "a b;c,d", "", undefined, undefined, 0)).toBe("n=a%20b%3Bc%2Cd; path=/");
  });
  it("legacyEcid reads MCMID from an AMCV value", () => {
    expect(legacyEcid("MCMID|12345678901234567890")).toBe("12345678901234567890");
    expect(legacyEcid("-1124106680|MCIDTS|19000|MCMID|42|MCAAMLH-1|9")).toBe("42");
    expect(legacyEcid("MCAID|x")).toBeUndefined();
    expect(legacyEcid(undefined)).toBeUndefined();
  });
});

describe("linkEcid (adobe_mc)", () => {
  const ORG = "ABC123@AdobeOrg";
  const NOW = 1_700_000_000_000;
  const mc = (ts: number | string, id = "77094828402023918047117570965393734545", org = ORG) =>
    encodeURIComponent(`TS=${ts}|MCMID=${id}|MCORGID=${encodeURIComponent(org)}`);
  /** What alloy adds for the same page address and time. */
  const alloys = (search: string, hash: string, now: number) => {
    let id: string | undefined;
    const logger = { info() {}, warn() {} };
    alloyLinkIdentity({ locationSearch: search, locationHash: hash, dateProvider: () => new Date(now), orgId: ORG, logger })({
      hasIdentity: () => false,
      addIdentity: (_ns, identity) => void (id = identity.id),
    });
    return id;
  };
  it('"identity query parameter valid 300 s": the ECID of a link at most 300 s old, for our org only', () => {
    const s = NOW / 1000;
    expect(LINK_TTL_SECONDS).toBe(300);
    expect(linkEcid(`?adobe_mc=${mc(s - 300)}`, "", ORG, NOW)).toBe("77094828402023918047117570965393734545");
    expect(linkEcid(`?adobe_mc=${mc(s - 301)}`, "", ORG, NOW)).toBeUndefined();
    expect(linkEcid(`?adobe_mc=${mc(s, "1", "OTHER@AdobeOrg")}`, "", ORG, NOW)).toBeUndefined();
    expect(linkEcid(`?x=1`, `#/route?adobe_mc=${mc(s)}`, ORG, NOW)).toBe("77094828402023918047117570965393734545");
    expect(linkEcid(`?adobe_mc=${mc(s, "1")}&adobe_mc=${mc(s, "2")}`, "", ORG, NOW)).toBe("2");
    expect(linkEcid("", "", ORG, NOW)).toBeUndefined();
    expect(linkEcid("?adobe_mc=%E0%A4%A", "", ORG, NOW)).toBeUndefined();
  });
  it("agrees with alloy's own reading for any link age, ids, orgs, encodings and places", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -400, max: 400 }),
        fc.constantFrom("123", "77094828402023918047117570965393734545", "", "12<script>3", "9%7C9"),
        fc.constantFrom(ORG, "OTHER@AdobeOrg", "ABC123%40AdobeOrg"),
        fc.constantFrom("search", "hash", "both", "twice", "raw"),
        (age, id, org, place) => {
          const s = Math.floor(NOW / 1000) - age;
          const v = place === "raw" ? `TS=${s}|MCMID=${id}|MCORGID=${org}` : mc(s, id, org);
          const search =
            place === "search" || place === "both" || place === "raw" ? `?a=1&adobe_mc=${v}` : place === "twice" ? `?adobe_mc=${mc(s, "5")}&adobe_mc=${v}` : "";
          const hash = place === "hash" || place === "both" ? `#/r?adobe_mc=${mc(s, "4", org)}` : "";
          expect(linkEcid(search, hash, ORG, NOW)).toBe(alloys(search, hash, NOW));
        },
      ),
    );
  });
});

describe("utf8Length", () => {
  it("counts the bytes a request body is sent as: 1 to 4 per character, a lone surrogate as U+FFFD (3)", () => {
    expect(utf8Length("")).toBe(0);
    expect(utf8Length("aé✓😀")).toBe(1 + 2 + 3 + 4);
    expect(utf8Length("a\ud800b\udfff")).toBe(1 + 3 + 1 + 3);
    expect(utf8Length('{"xdm":{"web":"é"}}'.repeat(1000))).toBe(20000);
  });
});

describe("fnv1a32Hex (the consent hash)", () => {
  it("equals alloy's", () => {
    for (const s of ["", "a", '{"value":{"general":"in"}}', '{"value":{"general":"out"}}', "ünïcödé ✓"]) expect(fnv1a32Hex(s)).toBe(alloyFnv(s));
    expect(fnv1a32Hex("")).toBe("811c9dc5");
  });
});

describe("thirdPartyBrowser", () => {
  it("Chromium-family yes, Firefox and Safari no", () => {
    expect(thirdPartyBrowser("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36")).toBe(true);
    expect(thirdPartyBrowser("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36 Edg/126.0")).toBe(
      true,
    );
    expect(thirdPartyBrowser("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0")).toBe(false);
    expect(thirdPartyBrowser("Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15")).toBe(false);
  });
});

describe("ianaTimezone", () => {
  it("Temporal.Now.timeZoneId() when the browser has it: no Intl, no storage", () => {
    const storage = { getItem: vi.fn(), setItem: vi.fn() } as unknown as Storage;
    const intl = vi.spyOn(Intl, "DateTimeFormat");
    try {
      expect(ianaTimezone(new Date(), storage, { Now: { timeZoneId: () => "Europe/Berlin" } })).toBe("Europe/Berlin");
      expect(intl).not.toHaveBeenCalled();
      expect(storage.getItem).not.toHaveBeenCalled();
    } finally {
      intl.mockRestore();
    }
  });

  it("a Temporal without Now.timeZoneId, or one that throws or answers empty: Intl as without it", () => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    for (const temporal of [
      {},
      { Now: {} },
      { Now: { timeZoneId: () => "" } },
      {
        Now: {
          timeZoneId: (): string => {
            throw new Error("no");
          },
        },
      },
    ])
      expect(ianaTimezone(new Date(), undefined, temporal)).toBe(zone);
  });

  it("Intl once, then the stored answer while Date shows the same offset and zone name", () => {
    const store = new Map<string, string>();
    const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) } as unknown as Storage;
    const intl = vi.spyOn(Intl, "DateTimeFormat");
    try {
      const date = new Date();
      const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
      intl.mockClear();
      expect(ianaTimezone(date, storage)).toBe(zone);
      expect(ianaTimezone(date, storage)).toBe(zone);
      expect(intl).toHaveBeenCalledTimes(1);
      expect(store.get("sitetags:tz")).toBe(`${date.toTimeString().slice(9)}|${zone}`);
      store.set("sitetags:tz", "GMT+0900 (Japan Standard Time)|Asia/Tokyo");
      expect(ianaTimezone(date, storage)).toBe(zone);
      expect(intl).toHaveBeenCalledTimes(2);
      expect(ianaTimezone(date, undefined)).toBe(zone);
    } finally {
      intl.mockRestore();
    }
  });
});

describe("uuid4", () => {
  const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  it("randomUUID, else getRandomValues, else Math.random: always a v4 UUID", () => {
    expect(uuid4(globalThis.crypto)).toMatch(V4);
    expect(uuid4({ getRandomValues: (a: Uint8Array) => globalThis.crypto.getRandomValues(a) } as unknown as Crypto)).toMatch(V4);
    expect(uuid4(undefined)).toMatch(V4);
  });
});
