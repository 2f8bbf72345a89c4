// ESLint (flat config): typescript-eslint's recommended rules, plus the
// project's boundaries (README "Layout"):
// - runtime code (runtime-modules/) imports only types from generator/: zod
//   and Node code never reach a bundle; nor does it import the Node-side
//   registry or module manifests (runtime-modules/registry.ts,
//   runtime-modules/modules/*/module.ts), which have rules of their own;
// - runtime-modules/core/ imports no sibling folder (it is the bottom layer;
//   boot/ is the composition root);
// - the preview reaches the generator only through its public API,
//   generator/index.ts, and the one directory walker, generator/walk.ts
//   (node:fs only, so the preview server does not load the compiler);
// - nothing reads outside the repository (a user's clone has no ../shared).
// Formatting is Prettier's (.prettierrc.json); `npm run lint` runs both.
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

const outsideRepo = {
  selector: "Literal[value=/(^|[\\\\/])\\.\\.[\\\\/]+shared([\\\\/]|$)/]",
  message: "The repository stands alone: nothing reads ../shared (a user's clone has nothing beside it).",
};

/** The Node-side files of runtime-modules/ (generator/bundle/compile-runtime.ts isNodeSide): the registry and the module manifests. */
const NODE_SIDE = ["runtime-modules/registry.ts", "runtime-modules/modules/*/module.ts"];

/** The import patterns of all browser code: types only from generator/, never zod or node:*, never the registry or a manifest. */
const RUNTIME_IMPORTS = [
  {
    group: ["**/generator/**", "zod", "node:*"],
    allowTypeImports: true,
    message: "Runtime code runs in students' browsers: it may only `import type` from generator/ (never zod or Node modules).",
  },
  {
    regex: "(^|/)(registry|module)(\\.[jt]s)?$",
    message:
      "Browser code never imports the registry or a module manifest (module.ts): they are Node-side metadata (zod, node:fs). Import a factory from its own file.",
  },
];

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
    ignores: NODE_SIDE,
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ["runtime-modules/**"],
    ignores: NODE_SIDE,
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [...RUNTIME_IMPORTS],
        },
      ],
    },
  },
  {
    // The module manifests: metadata compiled with the generator (tsconfig.generator.json), never bundled.
    files: ["runtime-modules/modules/*/module.ts"],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(?!\\.\\./\\.\\./\\.\\./generator/config/|\\.\\./\\.\\./registry\\.js$)",
              message:
                "A manifest imports its settings schema from generator/config/ and the ModuleManifest type from the registry, nothing else: not even its factory (it names the factory's file), whose browser code the generator's compile would pull in.",
            },
          ],
        },
      ],
    },
  },
  {
    // The registry: Node-side, compiled with the generator; it imports the manifests dynamically.
    files: ["runtime-modules/registry.ts"],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(?!node:|zod$|\\.\\./generator/config/)",
              message: "The registry imports Node modules, zod and config types only; never runtime code.",
            },
          ],
        },
      ],
    },
  },
  {
    // core/ is the bottom layer: everything imports it and it imports no sibling folder (consent/, edge/, rules/, …),
    // so the composition root (boot/) stands on top. A later block's rule replaces an earlier one's for the same
    // files, so this one repeats RUNTIME_IMPORTS.
    files: ["runtime-modules/core/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            ...RUNTIME_IMPORTS,
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
              group: ["**/generator/**", "!**/generator/index.js", "!**/generator/index", "!**/generator/walk.js"],
              message: "The preview uses the generator's public API only: import from generator/index (or the directory walker, generator/walk.js).",
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
