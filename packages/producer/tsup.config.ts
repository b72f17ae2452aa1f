import { defineConfig } from "tsup";

/**
 * `npm run pack:producer`'s bundle: one ESM file with @rewards/core's validation inlined;
 * the AWS SDK and zod stay dependencies (they are the consumer's too).
 */
export default defineConfig({
  entry: { index: "src/index.ts" },
  outDir: "../../dist/producer/dist",
  format: ["esm"],
  platform: "node",
  target: "node20",
  tsconfig: "tsconfig.pack.json",
  // Declarations come from rollup-plugin-dts (scripts/packLibrary.mjs), which inlines @rewards/core.
  dts: false,
  external: [/^@aws-sdk\//, /^@smithy\//, "zod"],
  noExternal: [/^@rewards\//, "p-limit", "ulid"],
  splitting: false,
  clean: true,
});
