// ESLint (flat config): typescript-eslint's recommended rules, plus the
// project's boundaries (README "Layout"):
// - runtime code (runtime-modules/) imports only types from generator/: zod
//   and Node code never reach a bundle;
// - runtime-modules/core/ imports no sibling folder (it is the bottom layer;
//   boot/ is the composition root);
// - the preview reaches the generator only through its public API,
//   generator/index.ts;
// - nothing reads outside the repository (a user's clone has no ../shared).
// Formatting is Prettier's (.prettierrc.json); `npm run lint` runs both.
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

const outsideRepo = {
  selector: "Literal[value=/(^|[\\\\/])\\.\\.[\\\\/]+shared([\\\\/]|$)/]",
  message: "The repository stands alone: nothing reads ../shared (a user's clone has nothing beside it).",
};

export default tseslint.config(
  { ignores: ["node_modules/", "build/", "dist/", "preview/dist/", ".sitetags-cache/", "test-results/", "**/*.d.ts"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.node } },
    rules: {
      "no-restricted-syntax": ["error", outsideRepo],
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true },
      ],
      // A `let` assigned once, after closures that read it were created (boot's identity), stays a `let`.
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
      "@typescript-eslint/no-unused-expressions": ["error", { allowShortCircuit: true, allowTernary: true }],
    },
  },
  {
    files: ["runtime-modules/**", "preview/src/**", "preview/page/**"],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ["runtime-modules/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/generator/**", "zod", "node:*"],
              allowTypeImports: true,
              message: "Runtime code runs in students' browsers: it may only `import type` from generator/ (never zod or Node modules).",
            },
          ],
        },
      ],
    },
  },
  {
    // core/ is the bottom layer: everything imports it and it imports no sibling folder (consent/, edge/, rules/, …),
    // so the composition root (boot/) stands on top. Types from generator/ stay allowed, as for all runtime code.
    files: ["runtime-modules/core/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/generator/**", "zod", "node:*"],
              allowTypeImports: true,
              message: "Runtime code runs in students' browsers: it may only `import type` from generator/ (never zod or Node modules).",
            },
            {
              regex: "^\\.\\./(?!\\.\\./)",
              message: "core/ imports nothing above it: move what it needs down into core/, or the importing file up (boot/ is the composition root).",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["preview/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/generator/**", "!**/generator/index.js", "!**/generator/index"],
              message: "The preview uses the generator's public API only: import from generator/index.",
            },
          ],
        },
      ],
    },
  },
  {
    // Tests and their harness poke at pages and fakes through `any` on purpose.
    files: ["test/**"],
    languageOptions: { globals: { ...globals.browser } },
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
);
