import { describe, expect, it } from "vitest";
import { MODULE_NAMES } from "../../../generator/config/module-names.js";
import { ModulesSchema } from "../../../generator/config/schema.js";

describe("the module names a build knows without loading zod", () => {
  it("are ModulesSchema's keys, in its order (each a folder of runtime-modules/modules/, checked by the registry)", () => {
    expect([...MODULE_NAMES]).toEqual(Object.keys(ModulesSchema.shape));
  });
});
