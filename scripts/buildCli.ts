/**
 * The `rewards` command's bundle (packages/cli/dist/): the CLI, the workspace packages and
 * most third-party packages it uses, compiled once, so a run loads a few minified files
 * instead of starting tsx. Every command is its own chunk, loaded only when it runs (packages/cli/src/registry.ts).
 * `npm run build:function` builds it with the functions (and so does `npm test`'s pretest);
 * packages/cli/bin/rewards.js runs it while it is newer than every file it was built from
 * (dist/inputs.json), the source through tsx otherwise.
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { build, type Metafile, type Plugin } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
export const CLI_DIST = "packages/cli/dist";

/**
 * Third-party packages are compiled in too, as in the functions' bundles: a run of the command
 * then parses one minified file per chunk where it resolved and loaded hundreds of the SDK's
 * CommonJS files (0.8 CPU-s a command against the stack, 0.45 bundled; `npm test` runs a few
 * hundred). Left to node_modules: what finds its own files at run time (pino's transports,
 * fauxqs's stores, tsx for a function's source, testcontainers).
 */
const LOADED_FROM_NODE_MODULES = /^(pino|fauxqs|tsx|testcontainers)(\/|$)/;
const runTimeFilesExternal: Plugin = {
  name: "run-time-files-external",
  setup(build) {
    build.onResolve({ filter: LOADED_FROM_NODE_MODULES }, (args) => ({ path: args.path, external: true }));
  },
};

/** Bundled CommonJS (much of the SDK) calls require; an ESM chunk has none of its own. */
const requireBanner = [
  `import { createRequire as topLevelCreateRequire } from "node:module";`,
  "const require = topLevelCreateRequire(import.meta.url);",
].join("\n");

/** `outdir` elsewhere for a copy of the bundle (tests/cliStartup.test.ts reads what each chunk holds). */
export async function buildCli(
  outdir = `${root}${CLI_DIST}`,
): Promise<{ outdir: string; bytes: number; metafile: Metafile }> {
  await rm(outdir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: { rewards: "packages/cli/src/main.ts" },
    outdir,
    outExtension: { ".js": ".mjs" },
    chunkNames: "chunks/[name]-[hash]",
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node22",
    mainFields: ["module", "main"],
    minify: true,
    keepNames: true,
    plugins: [runTimeFilesExternal],
    banner: { js: requireBanner },
    metafile: true,
    logLevel: "warning",
  });
  // What the bundle was built from: the bin runs the source instead once any of them is newer.
  // The lockfile stands for the bundled packages: an install that changes one rewrites it.
  const inputs = [
    ...Object.keys(result.metafile.inputs).filter((path) => !path.includes("node_modules")),
    "package-lock.json",
  ];
  await mkdir(outdir, { recursive: true });
  await writeFile(`${outdir}/inputs.json`, `${JSON.stringify(inputs)}\n`);
  const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
  return { outdir, bytes, metafile: result.metafile };
}

// `tsx scripts/buildCli.ts`: the bundle alone (scripts/bootstrap.mjs runs it when the bundle is stale).
if (import.meta.url === `file://${process.argv[1]}`) {
  const { outdir, bytes } = await buildCli();
  process.stdout.write(`${outdir.replace(root, "")}/: ${(bytes / 1024).toFixed(0)} KiB\n`);
}
