// Lint: typescript-eslint's type-aware rules over src/, test/, bench/ and scripts/ (installed in tools/lint; see its package.json).
import { createRequire } from "node:module";

const require = createRequire(new URL("./tools/lint/package.json", import.meta.url));
const tseslint = require("typescript-eslint");

export default tseslint.config(
  { ignores: ["node_modules/**", "tools/**", ".tmp/**", "dist/**", ".peers/**", "test/peers/**", "src/wire/*.gen.ts", "**/*.cjs", "**/*.mjs"] },
  {
    files: ["**/*.ts"],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { "@typescript-eslint": tseslint.plugin },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/no-unnecessary-condition": "error",
      // `typeof import("…")` stays allowed: it types modules loaded lazily with import(), kept out of start-up.
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports", disallowTypeAnnotations: false }],
    },
  },
  {
    // Test files declare what beforeAll sets as always assigned and guard it with `?.` in afterAll, for when beforeAll
    // failed; the rule cannot see that, so in test files it would only push the guards out. Support code keeps it.
    files: ["test/**/*.test.ts"],
    rules: { "@typescript-eslint/no-unnecessary-condition": "off" },
  },
);
