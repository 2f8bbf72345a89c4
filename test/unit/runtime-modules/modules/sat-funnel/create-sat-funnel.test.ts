import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SatFunnelModuleSchema } from "../../../../../generator/config/schemas/feature-modules.js";
import { MODULE_FAILED, REQUIRED_DATA_MISSING } from "../../../../../runtime-modules/core/messages";
import { CHANGE_STEPS_KEY } from "../../../../../runtime-modules/modules/sat-funnel/change-steps";
import { createSatFunnel, FUNNEL_EVENT_TYPE } from "../../../../../runtime-modules/modules/sat-funnel/create-sat-funnel";
import { changeStepPage } from "../../../../../runtime-modules/modules/sat-funnel/funnel-session";
import { NOT_A_FUNNEL_PAGE } from "../../../../../runtime-modules/modules/sat-funnel/messages";
import { registry } from "../../../../../runtime-modules/registry";
import { featureServices, flush, memoryStorage, type CookieJar, type FakeStorage } from "../feature-services";
import { ORDER_ALREADY_COUNTED } from "../../../../../runtime-modules/modules/sat-funnel/messages";

function setup(
  url: string,
  settings: Record<string, unknown> = {},
  options: { preload?: Record<string, unknown>[]; storage?: FakeStorage; site?: string; cookieJar?: CookieJar; performance?: boolean } = {},
) {
  const h = featureServices(SatFunnelModuleSchema.parse(settings), { url, ...options });
  const instance = createSatFunnel(h.services);
  /** The SPA views the module announced (`page-view` pushes), by page name. */
  const announced = () => (h.win.kiwiDataLayer as Array<Record<string, unknown>>).filter((p) => p.event === "page-view").map((p) => p.pageName);
  return { ...h, announced, commands: instance.commands! };
}

/** Boot (pre-load pushes, the org page view), then pending promises. */
async function started<T extends { start(): void }>(h: T): Promise<T> {
  h.start();
  await flush();
  return h;
}

const REG = "https://satreg.kiwi.example";
const step = (page: string, extra: Record<string, unknown> = {}, flow = "newreg") => ({ event: "registration-step", flow, page, ...extra });

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date(2024, 8, 20, 10, 0, 0)); // 2024-09-20, local time
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("createSatFunnel: page names", () => {
  it("its event type is the marker in the module's manifest (module.ts); commands and provided values are the ones its manifest lists", () => {
    const { commands } = setup(REG + "/register");
    expect(registry.satFunnel.markers).toEqual([FUNNEL_EVENT_TYPE]);
    expect(Object.keys(commands).sort()).toEqual([...registry.satFunnel.commands].sort());
    expect(registry.satFunnel.provides).toEqual(["pageName", "funnelErrorCode", "confirmationStep"]);
  });

  it('"page named flow:page": the org page view of the page the bundle loads on is named by the path (routes)', async () => {
    for (const [path, name] of [
      ["/register", "satreg:newreg:start"],
      ["/register/profile/personalinfo", "satreg:newreg:profile-personalinfo"],
      ["/register/datetc/choosecenter/", "satreg:newreg:datetc-choosecenter"],
      ["/register/manage", "satreg:changereg:dashboard"],
      ["/register/manage/anything", "satreg:changereg:dashboard"],
      ["/register/ticket", "satreg:satreg-ticket:view"],
      ["/register/change/datetc/seat-unavailable", "satreg:changereg:datetc-seat-unavailable"],
      ["/register/cancel/order/review", "satreg:cancelreg:order-review"],
      ["/register/answer-services/order/complete", "satreg:answersvc:order-complete"],
    ]) {
      const h = await started(setup(REG + path));
      expect(
        h.pageViews().map((v) => v.name),
        path,
      ).toEqual([name]);
      expect(h.commands.pageName()).toBe(name);
      vi.unstubAllGlobals();
    }
  });

  it("not a funnel page (or /register/paymentConfirmation): no name provided, the default page name stays", async () => {
    for (const path of ["/help", "/register/paymentConfirmation", "/register/not-a-page"]) {
      const h = await started(setup(REG + path));
      expect(h.values.get("pageName"), path).toBeUndefined();
      expect(h.commands.pageName()).toBeUndefined();
      expect(h.pageViews()).toHaveLength(1);
      vi.unstubAllGlobals();
    }
  });

  it("a registration-step pushed before the bundle loaded names the first page view and sets its variables; no second page view", async () => {
    const h = await started(
      setup(REG + "/register/app", {}, { preload: [step("datetc-choosedate", { satRegNo: "R123", adminDate: "2024/10/05", registrantType: "Repeat" })] }),
    );
    expect(h.pageViews()).toHaveLength(1);
    expect(h.pageViews()[0]).toMatchObject({
      name: "satreg:newreg:datetc-choosedate",
      variables: { eVar31: "R123", eVar35: "20241005", eVar36: "repeat", eVar39: "15" },
    });
    // Announced the documented way: before the first view, a page-view push only names it.
    expect(h.announced()).toEqual(["satreg:newreg:datetc-choosedate"]);
  });

  it("a registration-step for another page announces an SPA view ({ event: 'page-view', pageName }); the same page again does not", async () => {
    const h = await started(setup(REG + "/register"));
    h.push(step("start"));
    h.push(step("profile-start"));
    h.push(step("profile-start"));
    expect(h.announced()).toEqual(["satreg:newreg:profile-start"]);
    expect(h.values.get("pageName")).toBe("satreg:newreg:profile-start");
    expect(h.events()).toEqual([]);
  });

  it("a registration-step without flow and page takes them from the path (route change)", async () => {
    const h = await started(setup(REG + "/register"));
    h.navigate("/register/photo/upload");
    h.push({ event: "registration-step" });
    expect(h.announced()).toEqual(["satreg:newreg:photo-upload"]);
    expect(h.values.get("pageName")).toBe("satreg:newreg:photo-upload");
  });

  it("a route change the runtime names before the app announces it: the late registration-step is not another view", async () => {
    const h = await started(setup(REG + "/register"));
    h.navigate("/register/terms");
    expect(h.values.get("pageName")).toBe("satreg:newreg:terms");
    h.push({ event: "registration-step" });
    h.push(step("terms"));
    expect(h.announced()).toEqual([]);
  });

  it("an unknown flow or page is warned and ignored", async () => {
    const h = await started(setup(REG + "/register"));
    h.push(step("photo-selfie"));
    h.push(step("start", {}, "renew"));
    h.navigate("/elsewhere");
    h.push({ event: "registration-step" });
    expect(h.pageViews()).toHaveLength(1);
    expect(h.announced()).toEqual([]);
    expect(h.logs()).toEqual([
      ["warn", NOT_A_FUNNEL_PAGE],
      ["warn", NOT_A_FUNNEL_PAGE],
      ["warn", NOT_A_FUNNEL_PAGE],
    ]);
  });

  it("an action on the same page is a step event carrying the step (page:action:pageReach)", async () => {
    const h = await started(setup(REG + "/register/terms"));
    h.push(step("terms"));
    h.push(step("terms", { action: "accept" }));
    expect(h.events().map((e) => [e.name, e.eventType, e.variables.eVar41])).toEqual([["satreg:step:terms:accept", "kiwi.satFunnel", "terms:accept:0"]]);
  });
});

describe("createSatFunnel: a new registration through to order-complete", () => {
  it("page names of the whole run, registration data, and the purchase on the terminal step (prefix sr, feature types)", async () => {
    const h = await started(setup(REG + "/register"));
    const pages = [
      "start",
      "profile-start",
      "datetc-start",
      "terms",
      "datetc-choosedate",
      "datetc-choosecenter",
      "photo-start",
      "photo-upload",
      "order-review",
      "order-complete",
    ];
    for (const page of pages) {
      const extra: Record<string, unknown> =
        page === "datetc-choosedate"
          ? {
              satRegNo: "R777",
              adminType: "weekend",
              adminFormat: "digital",
              adminCode: "OCT24",
              adminDate: "2024/10/05",
              deviceChoice: "N/A",
              source: "email",
            }
          : {};
      if (page === "order-complete") Object.assign(extra, { orderId: "W9001", features: ["late", "digital", "bogus"] });
      h.push(step(page, extra));
    }
    h.push({ event: "fee-waiver", state: "claimed-code" });
    expect(h.pageViews().map((v) => v.name)).toEqual(["satreg:newreg:start"]);
    expect(h.announced()).toEqual(pages.slice(1).map((p) => "satreg:newreg:" + p));
    const review = h.sent.find((v) => v.name === "satreg:newreg:order-complete:purchase")!;
    expect(review.variables).toMatchObject({
      eVar31: "R777",
      eVar32: "weekend",
      eVar33: "digital",
      eVar34: "OCT24",
      eVar35: "20241005",
      eVar36: "other",
      eVar37: "none",
      eVar39: "15",
      eVar40: "email",
      eVar41: "order-complete:view:1",
      prop31: "n",
    });
    expect(review.variables.eVar38).toBeUndefined(); // deviceChoice N/A blanks it
    const purchases = h.events("commerce.purchases");
    expect(purchases).toHaveLength(1);
    expect(purchases[0].name).toBe("satreg:newreg:order-complete:purchase");
    expect(purchases[0].variables).toMatchObject({
      events: "purchase",
      purchaseID: "srW9001",
      eVar30: "W9001",
      eVar43: "SAT Registration",
      eVar44: "core|late|digital",
    });
  });

  it("the purchase is sent once per order; without an order id there is none; the id may come from order.id in the data layer", async () => {
    const h = await started(setup(REG + "/register/order/complete"));
    h.push(step("order-complete"));
    expect(h.events("commerce.purchases")).toEqual([]);
    h.push({ order: { id: "W1" } });
    h.push(step("order-complete"));
    h.push(step("order-complete", { orderId: "W1" }));
    expect(h.events("commerce.purchases").map((e) => e.variables.purchaseID)).toEqual(["srW1"]);
  });

  it('"confirmation-step cookie": a reload of order-complete (same session) sends no second purchase; another order does', async () => {
    const jar: CookieJar = new Map();
    const first = await started(setup(REG + "/register/order/complete", {}, { cookieJar: jar }));
    first.push(step("order-complete", { orderId: "W7" }));
    expect(first.events("commerce.purchases")).toHaveLength(1);
    const cookie = jar.get("kiwi_confirmation")!;
    expect(cookie.value).toBe("sr|W7");
    expect(cookie.options).toEqual({ sameSite: "Lax" }); // a session cookie (core/cookies.ts adds the parent domain, path / and Secure)
    vi.unstubAllGlobals();

    const reload = await started(setup(REG + "/register/order/complete", {}, { cookieJar: jar }));
    reload.push(step("order-complete", { orderId: "W7" }));
    expect(reload.events("commerce.purchases")).toEqual([]);
    expect(reload.logs()).toContainEqual(["info", ORDER_ALREADY_COUNTED]);
    reload.push(step("order-complete", { orderId: "W8" }));
    expect(reload.events("commerce.purchases").map((e) => e.variables.purchaseID)).toEqual(["srW8"]);
    expect(jar.get("kiwi_confirmation")!.value).toBe("sr|W7~sr|W8");
  });

  it("the payment confirmation page and order-complete count a SAT registration once between them (the same order id)", async () => {
    const jar: CookieJar = new Map();
    const payment = await started(setup(REG + "/register/paymentConfirmation", {}, { cookieJar: jar, preload: [{ order: { id: "W11" } }] }));
    expect(payment.values.get("confirmationStep")).toBe("first");
    vi.unstubAllGlobals();
    const complete = await started(setup(REG + "/register/order/complete", {}, { cookieJar: jar }));
    complete.push(step("order-complete", { orderId: "W11" }));
    expect(complete.events("commerce.purchases")).toEqual([]);
    expect(jar.get("kiwi_confirmation")!.value).toBe("sr|W11");
  });

  it("the confirmation-step cookie waits for performance consent: not written before it, written when it comes", async () => {
    const jar: CookieJar = new Map();
    const h = await started(setup(REG + "/register/order/complete", {}, { cookieJar: jar, performance: false }));
    h.push(step("order-complete", { orderId: "W9" }));
    expect(h.events("commerce.purchases")).toHaveLength(1); // queued by the Edge client until consent, not lost
    expect(jar.has("kiwi_confirmation")).toBe(false);
    h.grantPerformance();
    expect(jar.get("kiwi_confirmation")!.value).toBe("sr|W9");
  });

  it('confirmationStep on /register/paymentConfirmation: "first" for a new order.id (asked twice on the page: still "first"), "repeat" on a reload, "" elsewhere', async () => {
    const jar: CookieJar = new Map();
    const page = await started(setup(REG + "/register/paymentConfirmation", {}, { cookieJar: jar, preload: [{ order: { id: "SR5" } }] }));
    expect(page.values.get("confirmationStep")).toBe("first");
    expect(page.values.get("confirmationStep")).toBe("first");
    vi.unstubAllGlobals();
    const reload = await started(setup(REG + "/register/paymentConfirmation", {}, { cookieJar: jar, preload: [{ order: { id: "SR5" } }] }));
    expect(reload.values.get("confirmationStep")).toBe("repeat");
    vi.unstubAllGlobals();
    const other = await started(setup(REG + "/register/paymentConfirmation", {}, { cookieJar: jar, preload: [{ order: { id: "SR6" } }] }));
    expect(other.values.get("confirmationStep")).toBe("first");
    vi.unstubAllGlobals();
    const noId = await started(setup(REG + "/register/paymentConfirmation", {}, { cookieJar: jar }));
    expect(noId.values.get("confirmationStep")).toBe("first");
    vi.unstubAllGlobals();
    const elsewhere = await started(setup(REG + "/register", {}, { cookieJar: jar }));
    expect(elsewhere.values.get("confirmationStep")).toBe("");
  });

  it("the fee waiver makes fwType code or benefit and adds the fw feature type", async () => {
    const h = await started(setup(REG + "/register"));
    h.push({ event: "fee-waiver", state: "offered-benefit" });
    h.push({ event: "fee-waiver", state: "claimed-benefit" });
    h.push(step("order-complete", { orderId: "W2" }));
    expect(h.events("kiwi.satFunnel").map((e) => [e.name, e.variables.eVar37])).toEqual([
      ["satreg:fee-waiver:offered-benefit", "none"],
      ["satreg:fee-waiver:claimed-benefit", "benefit"],
    ]);
    expect(h.events("commerce.purchases")[0].variables).toMatchObject({ eVar37: "benefit", eVar44: "core|fw" });
  });

  it("order types and purchase id prefixes: change sc, cancel sx, answer services sa, the concise flow sr", async () => {
    const h = await started(setup(REG + "/register"));
    h.push(step("order-complete", { orderId: "C1" }, "changereg"));
    h.push(step("order-complete", { orderId: "X1" }, "cancelreg"));
    h.push(step("order-complete", { orderId: "A1" }, "answersvc"));
    h.push(step("order-complete", { orderId: "N1" }, "satregconc"));
    h.push(step("view", { orderId: "T1" }, "satreg-ticket"));
    expect(h.events("commerce.purchases").map((e) => [e.variables.purchaseID, e.variables.eVar43])).toEqual([
      ["scC1", "SAT Registration Change"],
      ["sxX1", "SAT Registration Cancel"],
      ["saA1", "Answer Services"],
      ["srN1", "SAT Registration"],
    ]);
  });

  it("the concise site: its route table and flow code", async () => {
    const settings = { flowCode: "satregconc", appId: "34", routes: [{ path: "/", flow: "satregconc" }], paymentPaths: ["/payment"] };
    const h = await started(setup("https://satregconc.kiwi.example/", settings));
    h.navigate("/datetc/choosedate");
    h.push({ event: "registration-step" });
    h.navigate("/order/complete");
    h.push({ event: "registration-step", orderId: "N5" });
    expect(h.pageViews().map((v) => v.name)).toEqual(["satregconc:satregconc:start"]);
    expect(h.announced()).toEqual(["satregconc:satregconc:datetc-choosedate", "satregconc:satregconc:order-complete"]);
    expect(h.events("commerce.purchases")[0].variables.purchaseID).toBe("srN5");
  });
});

describe("createSatFunnel: change-registration steps in session storage", () => {
  it("which page names the steps", () => {
    expect(["terms", "profile-start", "datetc-choosecenter", "photo-review", "order-complete"].map((p) => changeStepPage("changereg", p))).toEqual([
      "changereg-start",
      "change-profile-start",
      "change-datetc-choosecenter",
      "change-photo-review",
      "changereg-complete",
    ]);
    expect(changeStepPage("newreg", "profile-start")).toBeNull();
  });

  it("an SPA run: terms clears, profile / test center / photo append, order-complete sends them with the purchase and clears", async () => {
    const h = await started(setup(REG + "/register/manage", {}, { storage: memoryStorage({ [CHANGE_STEPS_KEY]: "photo" }) }));
    expect(h.storage.data[CHANGE_STEPS_KEY]).toBe("photo");
    const seen: Array<string | undefined> = [];
    for (const page of [
      "terms",
      "dashboard",
      "profile-start",
      "profile-personalinfo",
      "datetc-choosecenter",
      "datetc-accept",
      "profile-start",
      "order-review",
      "order-complete",
    ]) {
      h.push(step(page, page === "order-complete" ? { orderId: "C77" } : {}, "changereg"));
      seen.push(h.storage.data[CHANGE_STEPS_KEY]);
    }
    expect(seen).toEqual([
      undefined,
      undefined,
      "profile",
      "profile",
      "profile,test-center",
      "profile,test-center",
      "profile,test-center",
      "profile,test-center",
      undefined,
    ]);
    expect(h.events("commerce.purchases")[0].variables).toMatchObject({ purchaseID: "scC77", eVar45: "profile,test-center" });
  });

  it("across full page loads (each page a new bundle on the same tab), from the paths alone", async () => {
    const storage = memoryStorage();
    for (const path of ["/register/change/terms", "/register/change/photo/review", "/register/change/profile/start"]) {
      await started(setup(REG + path, {}, { storage }));
      vi.unstubAllGlobals();
    }
    expect(storage.data[CHANGE_STEPS_KEY]).toBe("photo,profile");
    const last = await started(
      setup(REG + "/register/change/order/complete", {}, { storage, preload: [{ order: { id: "C9" } }, { event: "registration-step" }] }),
    );
    expect(last.pageViews().map((v) => v.name)).toEqual(["satreg:changereg:order-complete"]);
    expect(last.events("commerce.purchases")[0].variables).toMatchObject({ purchaseID: "scC9", eVar45: "photo,profile" });
    expect(storage.data[CHANGE_STEPS_KEY]).toBeUndefined();
    expect(last.commands.changeSteps()).toEqual([]);
  });

  it("storage that throws: the steps are lost, tracking carries on", async () => {
    const h = await started(setup(REG + "/register/change/terms", {}, { storage: memoryStorage({}, true) }));
    h.push(step("profile-start", {}, "changereg"));
    h.push(step("order-complete", { orderId: "C1" }, "changereg"));
    expect(h.events("commerce.purchases")[0].variables.eVar45).toBe("none");
    expect(h.log.entries).toEqual([]);
  });
});

describe("createSatFunnel: funnel states", () => {
  it("widget actions: code-enter, tos-defer, tos-accept, tos-decline; anything else is warned", async () => {
    const h = await started(setup(REG + "/register"));
    for (const action of ["code-enter", "tos-defer", "tos-accept", "tos-decline", "tos-maybe"]) h.push({ event: "funnel-widget", action });
    expect(h.events().map((e) => [e.name, e.variables.eVar46])).toEqual([
      ["satreg:widget:code-enter", "code-enter"],
      ["satreg:widget:tos-defer", "tos-defer"],
      ["satreg:widget:tos-accept", "tos-accept"],
      ["satreg:widget:tos-decline", "tos-decline"],
    ]);
    expect(h.logs()).toEqual([["warn", REQUIRED_DATA_MISSING]]);
  });

  it("seat-hold alerts at 20, 5 and 1 minutes and expired, each once per hold; a new hold starts afresh", async () => {
    const h = await started(setup(REG + "/register/datetc/choosecenter"));
    for (const minutesLeft of [25, 20, 19, 6, 5, "4.5", 1, 0.5, 0, -1, 30, 19.5, "soon"]) h.push({ event: "seat-hold", minutesLeft });
    expect(h.events().map((e) => e.variables.eVar47)).toEqual(["20", "5", "1", "expired", "20"]);
    expect(h.events()[3].name).toBe("satreg:seat-hold:expired");
    expect(h.logs()).toEqual([["warn", REQUIRED_DATA_MISSING]]);
  });

  it("photo steps: exists, uploaded, choice saved (saved resets uploaded)", async () => {
    const h = await started(setup(REG + "/register/photo/upload"));
    for (const s of ["exists", "uploaded", "choice-saved", "uploaded", "selfie"]) h.push({ event: "photo-step", step: s });
    expect(h.events().map((e) => [e.name, e.variables.eVar48])).toEqual([
      ["satreg:photo:exists", "exists"],
      ["satreg:photo:uploaded", "exists|uploaded"],
      ["satreg:photo:choice-saved", "exists|saved"],
      ["satreg:photo:uploaded", "exists|uploaded|saved"],
    ]);
    expect(h.logs()).toEqual([["warn", REQUIRED_DATA_MISSING]]);
  });

  it("dashboard states: no-data, display-error, no-reg-no-score (given, or from the page's data); none for a dashboard with content", async () => {
    const h = await started(setup(REG + "/dashboard"));
    h.push({ event: "dashboard", dashboardState: "no-data" });
    h.push({ event: "dashboard", error: true });
    h.push({ event: "dashboard", data: { registrations: 0, scores: 0 } });
    h.push({ event: "dashboard", data: { registrations: 1, scores: 0 } });
    h.push({ event: "dashboard", cards: ["practice"] });
    expect(h.events().map((e) => [e.name, e.variables.prop33])).toEqual([
      ["satreg:dashboard:no-data", "no-data"],
      ["satreg:dashboard:display-error", "display-error"],
      ["satreg:dashboard:no-reg-no-score", "no-reg-no-score"],
    ]);
  });
});

describe("createSatFunnel: application errors", () => {
  it('"Payment-page errors and session timeouts get application id and flow code appended": the provided funnelErrorCode; the module sends no error itself', async () => {
    const h = await started(setup(REG + "/register/payment"));
    const code = () => h.values.get("funnelErrorCode");
    expect(code()).toBeUndefined();
    const seen: unknown[] = [];
    // The org rule application-error subscribes after the modules: it reads the value for the push it handles.
    h.dataLayer.on((_push, event) => event === "application-error" && seen.push(code()));
    h.push({ event: "application-error", code: "card-declined", message: "Card declined" });
    h.navigate("/register/profile/start");
    h.push({ event: "application-error", code: "svc-500", type: "http" });
    h.push({ event: "application-error", code: "sess-expired", type: "session-timeout" });
    h.push({ event: "application-error", code: "timeout-42" });
    h.navigate("/register/paymentConfirmation");
    h.push({ event: "application-error", code: "receipt-missing" });
    h.push({ event: "application-error", message: "no code" });
    expect(seen).toEqual(["card-declined:33:satreg", "svc-500", "sess-expired:33:satreg", "timeout-42:33:satreg", "receipt-missing", undefined]);
    expect(h.events()).toEqual([]);
    expect(h.log.entries).toEqual([]);
  });

  it("a configured appId replaces the site's; the concise site's flow code", async () => {
    const h = await started(
      setup("https://satregconc.kiwi.example/payment", {
        appId: "77",
        flowCode: "satregconc",
        routes: [{ path: "/", flow: "satregconc" }],
        paymentPaths: ["/payment"],
      }),
    );
    h.push({ event: "application-error", code: "x" });
    expect(h.values.get("funnelErrorCode")).toBe("x:77:satregconc");
  });
});

describe("createSatFunnel: containment", () => {
  it("never throws into the page: bad push data or a failing send is logged with the module and event", async () => {
    const h = await started(setup(REG + "/register"));
    expect(() => h.push(step("profile-start", { steps: [null] }))).not.toThrow();
    h.failSends();
    expect(() => h.push({ event: "funnel-widget", action: "tos-accept" })).not.toThrow();
    expect(h.log.entries.map((e) => [e.message, (e.data as { module: string; event: string }).event])).toEqual([
      [MODULE_FAILED, "registration-step"],
      [MODULE_FAILED, "funnel-widget"],
    ]);
  });
});
