/**
 * The one definition of how the functions are built. infra/ hands it to SST (each function's
 * `nodejs` options) and `npm run build:function` gives it to esbuild directly, so the
 * bundles tested here (packages/worker/dist/handler.mjs, packages/announcer/dist/handler.mjs,
 * packages/history/dist/handler.mjs, packages/read-api/dist/handler.mjs) are the bundles AWS runs. SST builds with esbuild too (pkg/runtime/node/build.go): platform
 * node, bundle, keepNames, mainFields module/main, and for ESM always the banner below.
 */
export const functionBuild = {
  /** ESM: what the source is, and what lets Node load the bundle without a package.json. */
  format: "esm" as const,
  /** Smaller to load and parse at every cold start; logs name errors in words, not stack frames. */
  minify: true,
  /** The runtime the function runs on (nodejs22.x): no down-levelling of what Node 22 has. */
  target: "node22",
  platform: "node" as const,
  /** Off, as SST's default for deploys: maps add to the bundle and to the init that parses it. */
  sourcemap: false,
  /**
   * Nothing external: the AWS SDK is bundled at the versions the tests ran against (the
   * runtime's own SDK changes under us); the bundle needs no node_modules at all.
   */
  external: [] as string[],
  keepNames: true,
  mainFields: ["module", "main"],
  /**
   * What SST prepends to every ESM bundle (bundled CommonJS code, some of the SDK's among it,
   * calls require and reads __dirname). SST adds it itself: it is repeated here only for
   * `npm run build:function`, so the two bundles begin alike.
   */
  esmBanner: [
    `import { createRequire as topLevelCreateRequire } from 'module';`,
    "const require = topLevelCreateRequire(import.meta.url);",
    `import { fileURLToPath as topLevelFileUrlToPath, URL as topLevelURL } from "url"`,
    "const __filename = topLevelFileUrlToPath(import.meta.url)",
    `const __dirname = topLevelFileUrlToPath(new topLevelURL(".", import.meta.url))`,
  ].join("\n"),
};

export interface FunctionEntry {
  /** The fixed entry point (its `handler` export); SST's handler string names it. */
  entry: string;
  handler: string;
  outfile: string;
}

/**
 * The four functions: the worker (the queue), the announcer and the history writer (both on
 * the table's stream), and the read API (a function URL).
 */
export const functionEntries = {
  worker: {
    entry: "packages/worker/src/handler.ts",
    handler: "packages/worker/src/handler.handler",
    outfile: "packages/worker/dist/handler.mjs",
  },
  announcer: {
    entry: "packages/announcer/src/handler.ts",
    handler: "packages/announcer/src/handler.handler",
    outfile: "packages/announcer/dist/handler.mjs",
  },
  history: {
    entry: "packages/history/src/handler.ts",
    handler: "packages/history/src/handler.handler",
    outfile: "packages/history/dist/handler.mjs",
  },
  readApi: {
    entry: "packages/read-api/src/handler.ts",
    handler: "packages/read-api/src/handler.handler",
    outfile: "packages/read-api/dist/handler.mjs",
  },
} as const satisfies Record<string, FunctionEntry>;

export type FunctionName = keyof typeof functionEntries;

/** A function's `nodejs` options for SST: the same choices (SST adds the banner itself). */
export function sstNodejsOptions() {
  const build = functionBuild;
  return {
    format: build.format,
    minify: build.minify,
    sourcemap: build.sourcemap,
    esbuild: { target: build.target, external: build.external },
  };
}
