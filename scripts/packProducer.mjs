// `npm run pack:producer`: @rewards/producer as a package another repository installs
// (`npm install ./rewards-producer-<version>.tgz`, or publish it to your registry): one ESM
// file with @rewards/core's validation inlined, one declaration file, and the AWS SDK and
// zod as dependencies. Writes dist/producer/ and dist/rewards-producer-<version>.tgz.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const run = (command, args, cwd = root) => {
  const result = spawnSync(command, args, { cwd, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
};
const read = (path) => JSON.parse(readFileSync(`${root}/${path}`, "utf8"));

run("npx", ["tsup"], `${root}/packages/producer`);
run("npx", [
  "dts-bundle-generator",
  "--project",
  "packages/producer/tsconfig.pack.json",
  "--external-inlines",
  "@rewards/core",
  "@rewards/core/aws",
  "--no-banner",
  "-o",
  "dist/producer/dist/index.d.ts",
  "packages/producer/src/index.ts",
]);

const producer = read("packages/producer/package.json");
const core = read("packages/core/package.json");
// Exactly what the bundle still imports, at the ranges this workspace uses.
const bundle = readFileSync(`${root}/dist/producer/dist/index.js`, "utf8");
const imported = [
  ...new Set([...bundle.matchAll(/from "((?:@[^/"]+\/)?[^/".][^/"]*)[^"]*"/g)].map((m) => m[1])),
].filter((name) => !["crypto", "timers", "node:crypto", "node:timers"].includes(name));
const ranges = { ...core.dependencies, ...producer.dependencies };
const dependencies = Object.fromEntries(imported.sort().map((name) => [name, ranges[name] ?? "*"]));
writeFileSync(
  `${root}/dist/producer/package.json`,
  `${JSON.stringify(
    {
      name: producer.name,
      version: producer.version,
      description:
        "Publish reading events to the rewards queue: typed builders, validation, batching, retries.",
      type: "module",
      exports: { ".": { types: "./dist/index.d.ts", import: "./dist/index.js" } },
      files: ["dist"],
      engines: { node: ">=20" },
      dependencies,
    },
    null,
    2,
  )}\n`,
);
run("npm", ["pack", "--pack-destination", ".."], `${root}/dist/producer`);
