import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a dependency-free .mjs script (it installs the dependencies), no types
import { cliBundleIsFresh, manifestsOf } from "../scripts/bootstrap.mjs";

/** A repository shaped like ours: one CLI source, its bundle and the bundle's inputs list. */
function repo(bundleAgeS: number, sourceAgeS: number): string {
  const root = mkdtempSync(join(tmpdir(), "rewards-bootstrap-"));
  mkdirSync(join(root, "packages/cli/src"), { recursive: true });
  mkdirSync(join(root, "packages/cli/dist"), { recursive: true });
  const source = join(root, "packages/cli/src/main.ts");
  const bundle = join(root, "packages/cli/dist/rewards.mjs");
  writeFileSync(source, "export {};\n");
  writeFileSync(bundle, "export {};\n");
  writeFileSync(join(root, "packages/cli/dist/inputs.json"), JSON.stringify(["packages/cli/src/main.ts"]));
  const now = Date.now() / 1000;
  utimesSync(source, now - sourceAgeS, now - sourceAgeS);
  utimesSync(bundle, now - bundleAgeS, now - bundleAgeS);
  return root;
}

describe("scripts/bootstrap.mjs", () => {
  it("builds the CLI's bundle when a source is newer than it, or it is missing, and not otherwise", () => {
    expect(cliBundleIsFresh(repo(10, 100))).toBe(true);
    expect(cliBundleIsFresh(repo(100, 10))).toBe(false);
    expect(cliBundleIsFresh(mkdtempSync(join(tmpdir(), "rewards-bootstrap-")))).toBe(false);
  });

  it("hashes every workspace's manifest, read from the root's workspaces", () => {
    const root = mkdtempSync(join(tmpdir(), "rewards-bootstrap-"));
    writeFileSync(join(root, "package.json"), JSON.stringify({ workspaces: ["packages/a", "packages/b"] }));
    expect(manifestsOf(root)).toEqual([
      "package.json",
      "package-lock.json",
      "packages/a/package.json",
      "packages/b/package.json",
    ]);
  });
});
