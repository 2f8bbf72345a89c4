/** JSON Schema of the config files, generated from the zod schemas (editor completion). */
import { z } from "zod";
import { OrgFileSchema, SiteFileSchema } from "./schema.js";

export function jsonSchemas() {
  const opts = { io: "input" as const, unrepresentable: "any" as const };
  return {
    site: { ...z.toJSONSchema(SiteFileSchema, opts), title: "sitetags site file (sites/CODE.yaml)" },
    org: { ...z.toJSONSchema(OrgFileSchema, opts), title: "sitetags organisation defaults (sites/_org.yaml)" },
  };
}
