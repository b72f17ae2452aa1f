import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { HANG_GUARD_MS } from "@rewards/testing";
import type { Metafile } from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";
import { buildCli } from "../scripts/buildCli";

// What `rewards --version` and `rewards --help` load, from the bundle as `npm run build:function`
// builds it (a copy, so no other test's bundle moves under it): a module-load hook records every
// file the run loads, and esbuild's metafile says what each chunk was built from. Their CPU
// against bare Node is bench/cliStartup.ts's: timing stays out of the tests.
const exec = promisify(execFile);
const root = fileURLToPath(new URL("../", import.meta.url));
const outdir = `${root}node_modules/.cache/rewards/cli-startup`;
let metafile: Metafile;

const HOOK = `import { registerHooks } from "node:module";
import { writeSync } from "node:fs";
const loaded = [];
registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context); } });
process.on("exit", () => writeSync(2, "\\nLOADED " + JSON.stringify(loaded) + "\\n"));
`;

beforeAll(async () => {
  ({ metafile } = await buildCli(outdir));
  await writeFile(`${outdir}/loadHook.mjs`, HOOK);
}, HANG_GUARD_MS);

/** The files a run of the bundle loads (outside Node's own), and what the bundle's were built from. */
async function loadedBy(args: string[]) {
  const run = await exec(
    process.execPath,
    ["--import", `${outdir}/loadHook.mjs`, `${outdir}/rewards.mjs`, ...args],
    {
      cwd: root,
      env: { PATH: process.env.PATH ?? "", COLUMNS: "100" },
    },
  );
  const files = (JSON.parse(/LOADED (.*)/.exec(run.stderr)?.[1] ?? "[]") as string[])
    .filter((url) => url.startsWith("file:"))
    .map((url) => fileURLToPath(url).slice(root.length));
  const inputs = files.flatMap((file) => Object.keys(metafile.outputs[file]?.inputs ?? {}));
  return { stdout: run.stdout, files, inputs };
}

/** Packages a command loads when it runs, never to say its version or list the commands. */
const HEAVY = /node_modules\/(zod|yaml|@aws-sdk|@smithy|pino)\/|^packages\/(?!cli\/)/;

describe("rewards --version and --help load no command's work (from the bundle)", () => {
  it("--version loads the entry's chunks alone: no command, no package of ours, no zod, SDK or yaml", async () => {
    const { stdout, files, inputs } = await loadedBy(["--version"]);
    expect(stdout).toBe("0.1.0\n");
    expect(
      files.filter((file) => file.includes("/node_modules/") && !file.startsWith("node_modules/.cache/")),
      files.join("\n"),
    ).toEqual([]);
    expect(inputs.filter((input) => HEAVY.test(input))).toEqual([]);
    expect(inputs.filter((input) => input.startsWith("packages/cli/src/commands/"))).toEqual([]);
    expect(inputs).toContain("packages/cli/src/main.ts");
  });

  it("--help loads the top-level commands, each without what it runs: no package of ours, no zod, SDK or yaml", async () => {
    const { stdout, inputs } = await loadedBy(["--help"]);
    expect(stdout).toContain("  schema [options] [type] ");
    expect(inputs).toContain("packages/cli/src/commands/index.ts");
    expect(inputs.filter((input) => HEAVY.test(input))).toEqual([]);
    // No verb is loaded for the list: `dlq replay`'s code is not among them.
    expect(inputs).not.toContain("packages/cli/src/commands/dlq/replay.ts");
  });

  it("a command that runs loads what it needs: `rewards schema streak.day` reaches core and zod", async () => {
    const { stdout, inputs } = await loadedBy(["schema", "streak.day"]);
    expect(JSON.parse(stdout)).toMatchObject({ $schema: "https://json-schema.org/draft/2020-12/schema" });
    expect(inputs.some((input) => input.includes("node_modules/zod/"))).toBe(true);
    expect(inputs.some((input) => input.startsWith("packages/core/src/"))).toBe(true);
  });
});
