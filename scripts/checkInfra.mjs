// `npm run check:infra`: the SST app, checked offline. 1. `sst install` if .sst/platform is
// missing (offline only with these three variables: otherwise it downloads Pulumi or bun);
// 2. the type check against SST's platform types; 3. the suite that runs the program under
// Pulumi mocks and asserts the resource graph (infra/test).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const step = (label, command, args, env = {}) => {
  process.stdout.write(`check:infra: ${label}\n`);
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  if (result.status !== 0) {
    process.stderr.write(`check:infra: ${label} failed (exit ${result.status ?? result.signal})\n`);
    process.exit(result.status ?? 1);
  }
};
const npx = process.platform === "win32" ? "npx.cmd" : "npx";

if (!existsSync(`${root}/.sst/platform/config.d.ts`)) {
  step(
    "sst install (offline; about 2.5 minutes on a cold npm cache)",
    npx,
    ["sst", "install", "--stage", "ci"],
    {
      SST_SKIP_DEPENDENCY_CHECK: "1",
      SST_NO_BUN: "1",
      SST_TELEMETRY_DISABLED: "1",
    },
  );
}
step("type check of sst.config.ts and infra/", npx, ["tsc", "-p", "tsconfig.infra.json"]);
step("the SST program under Pulumi mocks", npx, ["vitest", "run", "-c", "vitest.infra.config.ts"], {
  NO_COLOR: process.stdout.isTTY ? "" : "1",
});
