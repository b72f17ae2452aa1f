#!/usr/bin/env node
// Runs the CLI's bundle (packages/cli/dist, built by `npm run build:function`, which `npm test`
// runs first) while it is newer than every file it was built from; otherwise, as on a fresh
// clone or after an edit, the TypeScript source through tsx, so no build step stands between
// an edit and a run. REWARDS_FROM_SOURCE=1 runs the source regardless.
import { readFileSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";

const bundle = new URL("../dist/rewards.mjs", import.meta.url);

/** The bundle exists and no file it was built from (dist/inputs.json) has changed since. */
function bundleIsFresh() {
  if (process.env.REWARDS_FROM_SOURCE === "1") return false;
  try {
    const built = statSync(bundle).mtimeMs;
    // Paths as text, not a URL each: a few hundred of them, checked on every run (`--version` too).
    const root = fileURLToPath(new URL("../../../", import.meta.url));
    const inputs = JSON.parse(readFileSync(new URL("../dist/inputs.json", import.meta.url), "utf8"));
    return inputs.every((path) => statSync(root + path).mtimeMs <= built);
  } catch {
    return false;
  }
}

if (bundleIsFresh()) await import(bundle.href);
else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../src/main.ts");
}
