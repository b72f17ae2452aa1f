import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { relative } from "node:path";
import { promisify } from "node:util";

/** The key of errors that name no file (an option, a missing type library). */
const TSC = "tsc";

/**
 * Writes each of `files` (path → source) and type-checks them together as another repository
 * would compile them (strict, NodeNext modules, ES2022, Node's types, libraries' declarations
 * checked too), with this workspace's TypeScript run from `cwd`. One run for all: tsc spends its
 * ~10 s on the AWS SDK's declarations, whatever the number of files.
 *
 * Resolves the files that have errors, each with tsc's error lines for it; a file without an
 * error is absent, an error elsewhere (a library's declaration file) is under that file's path,
 * and one of the whole compilation (no file named) under "tsc".
 */
export async function typecheckModules(
  files: Record<string, string>,
  cwd: string,
): Promise<Record<string, string[]>> {
  await Promise.all(Object.entries(files).map(([file, source]) => writeFile(file, source)));
  const args = ["tsc", "--noEmit", "--strict", "--module", "nodenext", "--moduleResolution", "nodenext"];
  const output = await promisify(execFile)(
    "npx",
    [...args, "--target", "es2022", "--types", "node", ...Object.keys(files)],
    { cwd },
  ).then(
    () => "",
    (error: { stdout: string }) => error.stdout,
  );
  const errors: Record<string, string[]> = {};
  for (const line of output.split("\n")) {
    const located = /^(.+?)\(\d+,\d+\): error /.exec(line)?.[1];
    // An error of the whole compilation (an option, a missing type library) names no file.
    const where = located ?? (/^error TS\d+/.test(line) ? TSC : undefined);
    if (!where) continue;
    // tsc names files relative to cwd; the caller named them as it wrote them.
    const file = Object.keys(files).find((f) => relative(cwd, f) === where) ?? where;
    errors[file] = [...(errors[file] ?? []), line];
  }
  return errors;
}
