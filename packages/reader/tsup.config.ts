import { defineConfig } from "tsup";

/**
 * `npm run pack:reader`'s bundle: one ESM file with @rewards/core's keys and rules inlined;
 * the AWS SDK and zod stay dependencies (they are the consumer's too).
 */
export default defineConfig({
  entry: { index: "src/index.ts" },
  outDir: "../../dist/reader/dist",
  format: ["esm"],
  platform: "node",
  target: "node20",
  tsconfig: "tsconfig.pack.json",
  // Declarations come from rollup-plugin-dts (scripts/packLibrary.mjs), which inlines @rewards/core.
  dts: false,
  external: [/^@aws-sdk\//, /^@smithy\//, "zod"],
  // Node's own modules keep their `node:` name: what the bundle imports says what it is.
  removeNodeProtocol: false,
  noExternal: [/^@rewards\//],
  splitting: false,
  clean: true,
});
