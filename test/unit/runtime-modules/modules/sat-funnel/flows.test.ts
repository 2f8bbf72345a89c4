import { describe, expect, it } from "vitest";
import { FUNNEL_FLOW_CODES, SatFunnelModuleSchema } from "../../../../../generator/config/schemas/feature-modules.js";
import { FUNNEL_FLOWS, funnelPageFromPath, funnelPageName, isFunnelPage } from "../../../../../runtime-modules/modules/sat-funnel/flows";

const PHOTO = ["photo-start", "photo-review", "photo-instructions", "photo-upload", "photo-uploadadjust", "photo-checklist", "photo-accept", "photo-complete"];
const { routes } = SatFunnelModuleSchema.parse({});

describe("SAT registration flows (spec section 2)", () => {
  it("the flow codes of the schema are the flows of the table", () => {
    expect(Object.keys(FUNNEL_FLOWS)).toEqual([...FUNNEL_FLOW_CODES]);
  });

  it('"New registration: start, profile-start, ... order-complete, incomplete-dashboard"', () => {
    expect(FUNNEL_FLOWS.newreg).toEqual([
      "start",
      "profile-start",
      "profile-personalinfo",
      "profile-demographics",
      "profile-sdq",
      "datetc-start",
      "terms",
      "datetc-chooseregion",
      "datetc-choosetest",
      "datetc-choosedate",
      "datetc-choosecenter",
      "datetc-accept",
      "datetc-complete",
      ...PHOTO,
      "order-crosssell",
      "order-review",
      "order-accept",
      "order-complete",
      "incomplete-dashboard",
    ]);
  });
  it('"Ticket: satreg-ticket:view"', () => {
    expect(FUNNEL_FLOWS["satreg-ticket"]).toEqual(["view"]);
  });
  it('"Change registration: terms, dashboard, ..., the photo pages, order-review, order-accept, order-complete"', () => {
    expect(FUNNEL_FLOWS.changereg).toEqual([
      "terms",
      "dashboard",
      "profile-start",
      "profile-personalinfo",
      "datetc-choosecenter",
      "datetc-accept",
      "datetc-seat-unavailable",
      ...PHOTO,
      "order-review",
      "order-accept",
      "order-complete",
    ]);
  });
  it('"Cancel registration: order-review, order-complete"; "Answer service: order-review, order-complete"', () => {
    expect(FUNNEL_FLOWS.cancelreg).toEqual(["order-review", "order-complete"]);
    expect(FUNNEL_FLOWS.answersvc).toEqual(["order-review", "order-complete"]);
  });
  it('"Concise variant (satregconc): start, confirm-info, datetc-start, terms, datetc-choosedate, the photo pages, order-review, order-complete"', () => {
    expect(FUNNEL_FLOWS.satregconc).toEqual([
      "start",
      "confirm-info",
      "datetc-start",
      "terms",
      "datetc-choosedate",
      ...PHOTO,
      "order-review",
      "order-complete",
    ]);
  });
});

describe("funnelPageName", () => {
  it("every page of every flow is named site:flow:page", () => {
    for (const [flow, pages] of Object.entries(FUNNEL_FLOWS))
      for (const page of pages) expect(funnelPageName("satreg", flow, page)).toBe("satreg:" + flow + ":" + page);
  });
  it.each([
    ["satreg", "newreg", "start", "satreg:newreg:start"],
    ["satreg", "satreg-ticket", "view", "satreg:satreg-ticket:view"],
    ["satreg", "changereg", "dashboard", "satreg:changereg:dashboard"],
    ["satregconc", "satregconc", "confirm-info", "satregconc:satregconc:confirm-info"],
    ["satreg", "newreg", "confirm-info", null],
    ["satreg", "cancelreg", "order-accept", null],
    ["satreg", "answersvc", "start", null],
    ["satreg", "satreg-ticket", "start", null],
    ["satreg", "nope", "start", null],
    ["satreg", "constructor", "start", null],
  ])("%s %s %s → %s", (site, flow, page, name) => {
    expect(funnelPageName(site, flow, page)).toBe(name);
  });
  it("isFunnelPage", () => {
    expect(isFunnelPage("changereg", "datetc-seat-unavailable")).toBe(true);
    expect(isFunnelPage("newreg", "datetc-seat-unavailable")).toBe(false);
  });
});

describe("funnelPageFromPath (default routes)", () => {
  it.each([
    ["/register/manage", { flow: "changereg", page: "dashboard" }],
    ["/register/manage/", { flow: "changereg", page: "dashboard" }],
    ["/register/ticket", { flow: "satreg-ticket", page: "view" }],
    ["/register", { flow: "newreg", page: "start" }],
    ["/register/start", { flow: "newreg", page: "start" }],
    ["/register/profile/personalinfo", { flow: "newreg", page: "profile-personalinfo" }],
    ["/Register/DateTC/ChooseCenter", { flow: "newreg", page: "datetc-choosecenter" }],
    ["/register/photo/uploadadjust", { flow: "newreg", page: "photo-uploadadjust" }],
    ["/register/incomplete-dashboard", { flow: "newreg", page: "incomplete-dashboard" }],
    ["/register/change/datetc/seat-unavailable", { flow: "changereg", page: "datetc-seat-unavailable" }],
    ["/register/change/order/complete", { flow: "changereg", page: "order-complete" }],
    ["/register/cancel/order/review", { flow: "cancelreg", page: "order-review" }],
    ["/register/answer-services/order/complete", { flow: "answersvc", page: "order-complete" }],
    ["/register/paymentConfirmation", null],
    ["/register/change", null],
    ["/register/cancel/order/accept", null],
    ["/registered", null],
    ["/dashboard", null],
  ])('%s → %o ("The path register/manage maps to a change-registration dashboard")', (path, page) => {
    expect(funnelPageFromPath(path, routes)).toEqual(page);
  });

  it("a concise-site route table", () => {
    const concise = SatFunnelModuleSchema.parse({ flowCode: "satregconc", routes: [{ path: "/", flow: "satregconc" }] }).routes;
    expect(funnelPageFromPath("/", concise)).toEqual({ flow: "satregconc", page: "start" });
    expect(funnelPageFromPath("/confirm-info", concise)).toEqual({ flow: "satregconc", page: "confirm-info" });
    expect(funnelPageFromPath("/datetc/choosedate", concise)).toEqual({ flow: "satregconc", page: "datetc-choosedate" });
    expect(funnelPageFromPath("/datetc/choosecenter", concise)).toBeNull();
  });

  it("the first matching route decides, even when its flow lacks the page", () => {
    expect(funnelPageFromPath("/register/manage/x", routes)).toEqual({ flow: "changereg", page: "dashboard" });
    expect(funnelPageFromPath("/register/ticket/other", routes)).toEqual({ flow: "satreg-ticket", page: "view" });
    expect(funnelPageFromPath("/x", [])).toBeNull();
  });
});
