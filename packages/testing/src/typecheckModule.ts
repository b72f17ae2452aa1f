import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { promisify } from "node:util";

/**
 * Writes `source` to `file` and type-checks it as another repository would compile it
 * (strict, NodeNext modules, ES2022, Node's types), with this workspace's TypeScript run from
 * `cwd`. Resolves `{ ok, output }`: tsc's diagnostics when it refuses.
 */
export async function typecheckModule(file: string, source: string, cwd: string) {
  await writeFile(file, source);
  const args = ["tsc", "--noEmit", "--strict", "--module", "nodenext", "--moduleResolution", "nodenext"];
  return promisify(execFile)("npx", [...args, "--target", "es2022", "--types", "node", file], { cwd }).then(
    () => ({ ok: true, output: "" }),
    (error: { stdout: string }) => ({ ok: false, output: error.stdout }),
  );
}
