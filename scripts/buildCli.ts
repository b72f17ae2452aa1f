/**
 * The `rewards` command's bundle (packages/cli/dist/): the CLI and the workspace packages it
 * uses, compiled from TypeScript once, so a run loads plain JavaScript instead of starting
 * tsx. Every command is its own chunk, loaded only when it runs (packages/cli/src/commandList.ts).
 * `npm run build:function` builds it with the functions (and so does `npm test`'s pretest);
 * packages/cli/bin/rewards.js runs it while it is newer than every file it was built from
 * (dist/inputs.json), the source through tsx otherwise.
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
export const CLI_DIST = "packages/cli/dist";

/**
 * Third-party packages are loaded from node_modules, as they are for the source (some find
 * their own files at run time: pino's transports, fauxqs's stores, tsx for a function's
 * source); only the workspace's TypeScript is compiled in.
 */
const thirdPartyExternal: Plugin = {
  name: "third-party-external",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith("@rewards/") ? undefined : { path: args.path, external: true },
    );
  },
};

export async function buildCli(): Promise<{ outdir: string; bytes: number }> {
  const outdir = `${root}${CLI_DIST}`;
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
    target: "node20",
    plugins: [thirdPartyExternal],
    metafile: true,
    logLevel: "warning",
  });
  // What the bundle was built from: the bin runs the source instead once any of them is newer.
  const inputs = Object.keys(result.metafile.inputs).filter((path) => !path.includes("node_modules"));
  await mkdir(outdir, { recursive: true });
  await writeFile(`${outdir}/inputs.json`, `${JSON.stringify(inputs)}\n`);
  const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
  return { outdir, bytes };
}

// `tsx scripts/buildCli.ts`: the bundle alone (scripts/bootstrap.mjs runs it when the bundle is stale).
if (import.meta.url === `file://${process.argv[1]}`) {
  const { outdir, bytes } = await buildCli();
  process.stdout.write(`${outdir.replace(root, "")}/: ${(bytes / 1024).toFixed(0)} KiB\n`);
}
