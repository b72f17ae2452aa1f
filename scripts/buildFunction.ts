/**
 * `npm run build:function`: the deployable bundles of the four functions
 * (packages/worker/dist/handler.mjs, packages/announcer/dist/handler.mjs,
 * packages/history/dist/handler.mjs, packages/read-api/dist/handler.mjs), built with the
 * options infra/ gives SST (infra/functionBuild.ts), and the `rewards` command's bundle
 * (packages/cli/dist, scripts/buildCli.ts). Prints each bundle's size. `--function
 * worker|announcer|history|readApi` builds that function alone; `--metafile FILE` writes esbuild's metafile (what the bytes
 * are); `--no-cli` builds the functions but not the command; `--variant` builds an alternative for the cold-start benchmark (`unminified`, or
 * `sdk-external`: the SDK left to the runtime) to `--outfile`.
 */
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { build } from "esbuild";
import { type FunctionName, functionBuild, functionEntries } from "../infra/functionBuild";
import { buildCli } from "./buildCli";

const root = fileURLToPath(new URL("..", import.meta.url));

export type BuildVariant = "deployed" | "unminified" | "sdk-external";

export async function buildFunction(
  options: { function?: FunctionName; variant?: BuildVariant; outfile?: string; metafile?: string } = {},
): Promise<{ outfile: string; bytes: number }> {
  const definition = { ...functionBuild, ...functionEntries[options.function ?? "worker"] };
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
    options: {
      function: { type: "string" },
      variant: { type: "string" },
      outfile: { type: "string" },
      metafile: { type: "string" },
      // The functions alone: the semantic mutants' scratch copy runs the CLI from source.
      "no-cli": { type: "boolean" },
    },
  });
  const names = values.function
    ? [values.function as FunctionName]
    : (Object.keys(functionEntries) as FunctionName[]);
  for (const name of names) {
    if (!(name in functionEntries))
      throw new Error(`--function must be one of ${Object.keys(functionEntries).join(", ")}`);
    const { outfile, bytes } = await buildFunction({
      function: name,
      variant: values.variant as BuildVariant | undefined,
      outfile: values.outfile,
      metafile: values.metafile,
    });
    process.stdout.write(`${outfile.replace(root, "")}: ${(bytes / 1024).toFixed(0)} KiB\n`);
  }
  if (!values.function && !values.variant && !values["no-cli"]) {
    const { outdir, bytes } = await buildCli();
    process.stdout.write(`${outdir.replace(root, "")}/: ${(bytes / 1024).toFixed(0)} KiB\n`);
  }
}
