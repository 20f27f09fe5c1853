import js from "@eslint/js";
import importX from "eslint-plugin-import-x";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import { floorBoundaries, serverModuleBoundaries } from "./tooling/module-boundaries.js";

const layerBoundaries = [
  { target: "./app", from: ["./scripts", "./tests"], message: "The app never imports scripts or tests." },
  { target: "./scripts", from: "./tests", message: "Scripts never import tests." },
];

// Syntax-only rules (no type information): the type-check is `tsc`, and this stays fast. The import rules
// resolve imports through tsconfig (the `~/` alias included) to check the layout: no cycles, no import into
// another server module's internals, and nothing under app/ or scripts/ that imports the tests.
export default tseslint.config(
  {
    ignores: [
      "build/",
      ".react-router/",
      "node_modules/",
      "data/",
      "test-results/",
      "playwright-report/",
      "bench-results/",
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  reactHooks.configs.flat.recommended,
  jsxA11y.flatConfigs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    // `interface AppLoadContext extends … {}` is how React Router's load context type is augmented.
    rules: {
      "@typescript-eslint/no-empty-object-type": ["error", { allowInterfaces: "with-single-extends" }],
      // A region that scrolls sideways (a wide table on a phone) must be focusable to be scrolled by keyboard.
      "jsx-a11y/no-noninteractive-tabindex": ["error", { tags: [], roles: ["tabpanel", "region"] }],
    },
  },
  {
    files: ["**/*.{ts,tsx,js}"],
    plugins: { "import-x": importX },
    settings: {
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "./tsconfig.json" })],
      // Imported files are parsed as TypeScript, so that a cycle through them is seen.
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
    },
    rules: {
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "import-x/no-restricted-paths": ["error", { zones: layerBoundaries }],
    },
  },
  {
    // A server module's files are its own; others use its public surface, index.server.ts. Tests may reach in,
    // and a table may name another module's table in a foreign key (the database keeps the two consistent).
    files: ["app/**/*.{ts,tsx}", "scripts/**/*.ts", "server.ts"],
    ignores: ["**/*.test.ts", "app/server/*/schema.server.ts"],
    rules: {
      "import-x/no-restricted-paths": [
        "error",
        { zones: [...layerBoundaries, ...serverModuleBoundaries(), ...floorBoundaries()] },
      ],
    },
  },
  {
    // Server code logs through app/server/log.server.ts, which keeps personal data out of the logs.
    files: ["server.ts", "app/server/**/*.ts", "app/config/**/*.ts", "app/entry.server.tsx"],
    ignores: ["**/*.test.ts"],
    rules: { "no-console": "error" },
  },
);
