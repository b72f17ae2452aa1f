/**
 * `npm run build:function`: the deployable worker bundle, packages/worker/dist/handler.mjs,
 * built with the options infra/ gives SST (infra/functionBuild.ts). Prints the bundle's size;
 * `--metafile FILE` writes esbuild's metafile (what the bytes are), `--variant` builds an
 * alternative for the cold-start benchmark (`unminified`, or `sdk-external`: the SDK left to
 * the runtime) to `--outfile`.
 */
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { build } from "esbuild";
import { workerFunctionBuild } from "../infra/functionBuild";

const root = fileURLToPath(new URL("..", import.meta.url));

export type BuildVariant = "deployed" | "unminified" | "sdk-external";

export async function buildWorkerFunction(
  options: { variant?: BuildVariant; outfile?: string; metafile?: string } = {},
): Promise<{ outfile: string; bytes: number }> {
  const definition = workerFunctionBuild;
  const variant = options.variant ?? "deployed";
  const outfile = options.outfile ?? `${root}${definition.outfile}`;
  const result = await build({
    absWorkingDir: root,
    entryPoints: [definition.entry],
    outfile,
    bundle: true,
    format: definition.format,
    platform: definition.platform,
    target: definition.target,
    minify: variant === "unminified" ? false : definition.minify,
    sourcemap: definition.sourcemap,
    keepNames: definition.keepNames,
    mainFields: definition.mainFields,
    external: variant === "sdk-external" ? ["@aws-sdk/*", "@smithy/*"] : definition.external,
    banner: { js: definition.esmBanner },
    metafile: true,
    logLevel: "warning",
  });
  if (options.metafile) await writeFile(options.metafile, JSON.stringify(result.metafile));
  const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
  return { outfile, bytes };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: { variant: { type: "string" }, outfile: { type: "string" }, metafile: { type: "string" } },
  });
  const { outfile, bytes } = await buildWorkerFunction({
    variant: values.variant as BuildVariant | undefined,
    outfile: values.outfile,
    metafile: values.metafile,
  });
  process.stdout.write(`${outfile.replace(root, "")}: ${(bytes / 1024).toFixed(0)} KiB\n`);
}
