import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  dashboardState,
  FEE_WAIVER_STATES,
  FUNNEL_WIDGET_ACTIONS,
  fwType,
  isFunnelWidgetAction,
  nextPhotoState,
  nextSeatHoldAlert,
  PHOTO_STEPS,
  seatHoldAlert,
  type PhotoState,
  type SeatHoldAlert,
} from "../../../../../runtime-modules/modules/sat-funnel/funnel-states";

describe("seat-hold alerts", () => {
  it.each([
    [30, null],
    [20.01, null],
    [20, 20],
    [19.5, 20],
    [5.01, 20],
    [5, 5],
    [1.01, 5],
    [1, 1],
    [0.5, 1],
    [0, "expired"],
    [-3, "expired"],
    [NaN, null],
  ])('"Seat-hold alerts at 20, 5 and 1 minutes, and expired": %s minutes left → %s', (minutes, alert) => {
    expect(seatHoldAlert(minutes)).toBe(alert);
  });

  it("each alert fires once on a counting-down hold (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -1, max: 30, noNaN: true }), { maxLength: 40 }), (ticks) => {
        const fired: SeatHoldAlert[] = [];
        for (const m of ticks.sort((a, b) => b - a)) {
          const a = nextSeatHoldAlert(m, fired);
          if (a !== null) fired.push(a);
        }
        expect(new Set(fired).size).toBe(fired.length);
        const order: SeatHoldAlert[] = [20, 5, 1, "expired"];
        expect(fired.map((a) => order.indexOf(a))).toEqual(fired.map((a) => order.indexOf(a)).sort());
      }),
    );
  });
});

describe("photo steps", () => {
  const empty: PhotoState = { exists: false, uploaded: false, saved: false };
  it('"Photo steps: exists, uploaded, choice saved (saved resets uploaded)"', () => {
    expect(PHOTO_STEPS).toEqual(["exists", "uploaded", "choice-saved"]);
    expect(nextPhotoState(empty, "exists")).toEqual({ exists: true, uploaded: false, saved: false });
    expect(nextPhotoState(empty, "uploaded")).toEqual({ exists: false, uploaded: true, saved: false });
    expect(nextPhotoState({ exists: true, uploaded: true, saved: false }, "choice-saved")).toEqual({ exists: true, uploaded: false, saved: true });
    expect(nextPhotoState({ exists: true, uploaded: false, saved: true }, "uploaded")).toEqual({ exists: true, uploaded: true, saved: true });
    expect(nextPhotoState(empty, "other")).toEqual(empty);
  });
  it("never mutates the state", () => {
    const s: PhotoState = { exists: false, uploaded: true, saved: false };
    nextPhotoState(s, "choice-saved");
    expect(s).toEqual({ exists: false, uploaded: true, saved: false });
  });
  it("after choice-saved, uploaded is false until the next upload (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PHOTO_STEPS, "x"), { maxLength: 20 }), (steps) => {
        const s = steps.reduce(nextPhotoState, empty);
        const lastSave = steps.lastIndexOf("choice-saved");
        const lastUpload = steps.lastIndexOf("uploaded");
        expect(s.uploaded).toBe(lastUpload > lastSave);
        expect(s.saved).toBe(lastSave >= 0);
        expect(s.exists).toBe(steps.indexOf("exists") >= 0);
      }),
    );
  });
});

describe("fee waiver", () => {
  it('"Fee waiver: claimed code, offered benefit, claimed benefit" → fwType (code, benefit, none)', () => {
    expect(FEE_WAIVER_STATES).toEqual(["claimed-code", "offered-benefit", "claimed-benefit"]);
    expect(fwType(["claimed-code"])).toBe("code");
    expect(fwType(["offered-benefit", "claimed-benefit"])).toBe("benefit");
    expect(fwType(["claimed-benefit", "claimed-code"])).toBe("code");
    expect(fwType(["offered-benefit"])).toBe("none");
    expect(fwType([])).toBe("none");
    expect(fwType(null)).toBe("none");
  });
});

describe("funnel widget actions", () => {
  it('"SAT funnel widget actions: code-enter, tos-defer, tos-accept, tos-decline"', () => {
    expect(FUNNEL_WIDGET_ACTIONS).toEqual(["code-enter", "tos-defer", "tos-accept", "tos-decline"]);
    for (const a of FUNNEL_WIDGET_ACTIONS) expect(isFunnelWidgetAction(a)).toBe(true);
    for (const a of ["tos", "TOS-ACCEPT", "", null, 1]) expect(isFunnelWidgetAction(a)).toBe(false);
  });
});

describe("dashboard page state", () => {
  it.each([
    [{ error: true, data: { registrations: 1, scores: 1 } }, "display-error"],
    [{ error: true }, "display-error"],
    [{}, "no-data"],
    [{ data: null }, "no-data"],
    [{ data: { registrations: 0, scores: 0 } }, "no-reg-no-score"],
    [{ data: {} }, "no-reg-no-score"],
    [{ data: { registrations: 1, scores: 0 } }, null],
    [{ data: { registrations: 0, scores: 2 } }, null],
  ])('"Dashboard page state: no-data, display-error, no-reg-no-score": %o → %s', (page, state) => {
    expect(dashboardState(page)).toBe(state);
  });
});
