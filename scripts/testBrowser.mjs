#!/usr/bin/env node
// `npm run test:browser`: the reader's page in a real browser. playwright-core drives the
// system's Chromium (its own download needs the internet): CHROMIUM_PATH, else
// /usr/bin/chromium, installed with apt-get when it is missing (Debian's package; root, or
// sudo without a password). Then vitest with vitest.browser.config.ts.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

function run(command, args, extraEnv = {}) {
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...extraEnv } });
  if (result.error) {
    process.stderr.write(`test:browser: could not run ${command}: ${result.error.message}\n`);
    process.exit(1);
  }
  return result.status ?? 1;
}

if (!existsSync(chromium)) {
  if (process.env.CHROMIUM_PATH) {
    process.stderr.write(`test:browser: CHROMIUM_PATH names ${chromium}, which does not exist\n`);
    process.exit(1);
  }
  process.stdout.write(`test:browser: ${chromium} is missing: installing Debian's chromium with apt-get\n`);
  const sudo = process.getuid?.() === 0 ? [] : ["sudo", "-n"];
  const apt = (...args) => {
    const [command, ...rest] = [...sudo, "apt-get", ...args];
    return run(command, rest, { DEBIAN_FRONTEND: "noninteractive" });
  };
  if (
    apt("update") !== 0 ||
    apt("install", "-y", "--no-install-recommends", "chromium") !== 0 ||
    !existsSync(chromium)
  ) {
    process.stderr.write(
      "test:browser: installing chromium failed (see above): install it, or set CHROMIUM_PATH\n",
    );
    process.exit(1);
  }
}
process.exit(
  run("npx", ["vitest", "run", "--config", "vitest.browser.config.ts"], {
    CHROMIUM_PATH: chromium,
    VITE_CONFIG_NATIVE_IGNORE_WARNING: "true",
  }),
);
