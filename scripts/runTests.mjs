// `npm test`'s last step: vitest, without colour codes when the output is not a terminal
// (CI logs, pipes, files), where they are noise.
import { spawn } from "node:child_process";

const env = { ...process.env };
if (!process.stdout.isTTY && env.FORCE_COLOR === undefined) env.NO_COLOR = "1";
const child = spawn(process.execPath, ["node_modules/vitest/vitest.mjs", "run", ...process.argv.slice(2)], {
  stdio: "inherit",
  env,
});
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
