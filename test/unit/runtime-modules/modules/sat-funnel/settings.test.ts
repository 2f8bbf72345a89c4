import { describe, expect, it } from "vitest";
import { SatFunnelModuleSchema } from "../../../../../generator/config/schemas/feature-modules.js";

describe("satFunnel settings", () => {
  it("spec defaults", () => {
    expect(SatFunnelModuleSchema.parse({})).toEqual({
      enabled: true,
      flowCode: "satreg",
      routes: [
        { path: "/register/manage", flow: "changereg", page: "dashboard" },
        { path: "/register/ticket", flow: "satreg-ticket", page: "view" },
        { path: "/register/change", flow: "changereg" },
        { path: "/register/cancel", flow: "cancelreg" },
        { path: "/register/answer-services", flow: "answersvc" },
        { path: "/register", flow: "newreg" },
      ],
      paymentPaths: ["/register/payment"],
    });
  });
  it("the concise site", () => {
    expect(SatFunnelModuleSchema.parse({ flowCode: "satregconc", appId: "34", routes: [{ path: "/", flow: "satregconc" }] })).toMatchObject({
      flowCode: "satregconc",
      appId: "34",
      routes: [{ path: "/", flow: "satregconc" }],
    });
  });
  it("rejects bad values", () => {
    for (const bad of [
      { flowCode: "SatReg" },
      { appId: 33 },
      { appId: "x33" },
      { routes: [{ path: "register", flow: "newreg" }] },
      { routes: [{ path: "/r", flow: "renew" }] },
      { routes: [{ path: "/r", flow: "newreg", page: "Start Page" }] },
      { paymentPaths: ["payment"] },
      { seatHold: [20] },
    ])
      expect(SatFunnelModuleSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });
  it("every setting is described", () => {
    for (const [key, value] of Object.entries(SatFunnelModuleSchema.shape)) if (key !== "enabled") expect(value.description, key).toBeTruthy();
  });
});
