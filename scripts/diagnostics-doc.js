#!/usr/bin/env node
// Prints docs/diagnostics.md from the registry of codes (build/generator/diagnostics/codes.js).
// A unit test keeps docs/diagnostics.md equal to this output.
import { DIAGNOSTIC_CODES } from "../build/generator/index.js";
export function render(codes) {
  const rows = Object.entries(codes).map(([code, text]) => `| \`${code}\` | ${text} |`);
  return `# Build diagnostics\n\nEvery problem the generator reports has one of these codes. Configuration problems exit 1, build problems (and \`manifest merge\` refusals) exit 3, publishing problems (\`publish\`, \`rollback\`, \`promote\`) exit 4.\nHeadlines look like \`sites/bigfuture.yaml:12:5 error CONFIG_UNKNOWN_KEY: unknown key "sampel" (did you mean "sample"?) at modules.survey.sampel\`, followed by a code frame.\n\n| code | meaning |\n| --- | --- |\n${rows.join("\n")}\n`;
}
if (import.meta.url === `file://${process.argv[1]}`) process.stdout.write(render(DIAGNOSTIC_CODES));
