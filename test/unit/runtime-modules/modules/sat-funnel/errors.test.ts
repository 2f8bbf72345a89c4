import { describe, expect, it } from "vitest";
import { SatFunnelModuleSchema } from "../../../../../generator/config/schemas/feature-modules.js";
import { funnelErrorCode, isPaymentConfirmation, isPaymentPage, PAYMENT_CONFIRMATION_PATH } from "../../../../../runtime-modules/modules/sat-funnel/errors";

const { paymentPaths, flowCode } = SatFunnelModuleSchema.parse({});

describe("payment pages", () => {
  it('"The SAT registration payment confirmation path is /register/paymentConfirmation"', () => {
    expect(PAYMENT_CONFIRMATION_PATH).toBe("/register/paymentConfirmation");
    expect(isPaymentConfirmation("/register/paymentConfirmation")).toBe(true);
    expect(isPaymentConfirmation("/register/paymentconfirmation/")).toBe(true);
    expect(isPaymentConfirmation("/register/payment")).toBe(false);
    expect(isPaymentConfirmation("/register/paymentConfirmation/x")).toBe(false);
    expect(isPaymentConfirmation("")).toBe(false);
  });
  it("the payment page (default /register/payment), not the confirmation", () => {
    expect(isPaymentPage("/register/payment", paymentPaths)).toBe(true);
    expect(isPaymentPage("/register/payment/card", paymentPaths)).toBe(true);
    expect(isPaymentPage("/register/paymentConfirmation", paymentPaths)).toBe(false);
    expect(isPaymentPage("/register/paymentConfirmation", ["/register"])).toBe(false);
    expect(isPaymentPage("/register/review", paymentPaths)).toBe(false);
  });
});

describe("funnel error codes", () => {
  const base = { appId: "33", flowCode };
  it('"Payment-page errors and session timeouts get application id and flow code appended"', () => {
    expect(funnelErrorCode("card-declined", { ...base, paymentPage: true, timeout: false })).toBe("card-declined:33:satreg");
    expect(funnelErrorCode("session-timeout", { ...base, paymentPage: false, timeout: true })).toBe("session-timeout:33:satreg");
    expect(funnelErrorCode("e1", { appId: "34", flowCode: "satregconc", paymentPage: true, timeout: true })).toBe("e1:34:satregconc");
  });
  it("other errors keep their code", () => {
    expect(funnelErrorCode("profile-invalid", { ...base, paymentPage: false, timeout: false })).toBe("profile-invalid");
  });
});
