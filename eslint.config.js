import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// Syntax-only rules (no type information): the type-check is `tsc`, and this stays fast.
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
    // Server code logs through app/server/log.server.ts, which keeps personal data out of the logs.
    files: ["server.ts", "app/server/**/*.ts", "app/config/**/*.ts", "app/entry.server.tsx"],
    ignores: ["**/*.test.ts"],
    rules: { "no-console": "error" },
  },
);
