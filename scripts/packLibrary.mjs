// `npm run pack:producer` / `npm run pack:reader`: a library as a package another repository
// installs (`npm install ./rewards-<name>-<version>.tgz`, or publish it to your registry): one
// ESM file with @rewards/core inlined, one declaration file, its README (packages/<name>/README.md),
// and the AWS SDK and zod as dependencies. Writes dist/<name>/ and dist/rewards-<name>-<version>.tgz.
import { spawnSync } from "node:child_process";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { rollup } from "rollup";
import { dts } from "rollup-plugin-dts";

/** What each packed library says of itself on the registry. */
const libraries = {
  producer: "Publish reading events to the rewards queue: typed builders, validation, batching, retries.",
  reader: "Read a user's rewards: profile, level, today's XP against the cap, and the award history.",
};
const name = process.argv[2];
if (!(name in libraries)) {
  process.stderr.write(`usage: node scripts/packLibrary.mjs ${Object.keys(libraries).join("|")}\n`);
  process.exit(2);
}

const root = fileURLToPath(new URL("..", import.meta.url));
const run = (command, args, cwd = root) => {
  const result = spawnSync(command, args, { cwd, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
};
const read = (path) => JSON.parse(readFileSync(`${root}/${path}`, "utf8"));

run("npx", ["tsup"], `${root}/packages/${name}`);
// One declaration file with @rewards/core's types inlined (tsconfig.pack.json maps it to its
// source; what resolves into node_modules, the SDK and zod, stays an import). rollup-plugin-dts
// takes 4 s here where dts-bundle-generator took 150: its symbol-usage walk over the SDK's
// types has no negative cache.
const declarations = await rollup({
  input: `${root}/packages/${name}/src/index.ts`,
  plugins: [dts({ tsconfig: `${root}/packages/${name}/tsconfig.pack.json` })],
  onwarn: (warning) => {
    throw new Error(`declarations of ${name}: ${warning.message}`);
  },
});
await declarations.write({ file: `${root}/dist/${name}/dist/index.d.ts`, format: "es" });
await declarations.close();

const library = read(`packages/${name}/package.json`);
const core = read("packages/core/package.json");
// Exactly what the bundle still imports, at the ranges this workspace uses.
const bundle = readFileSync(`${root}/dist/${name}/dist/index.js`, "utf8");
const imported = [
  ...new Set([...bundle.matchAll(/from "((?:@[^/"]+\/)?[^/".][^/"]*)[^"]*"/g)].map((m) => m[1])),
].filter((module) => !module.startsWith("node:") && !["crypto", "timers"].includes(module));
const ranges = { ...core.dependencies, ...library.dependencies };
const dependencies = Object.fromEntries(imported.sort().map((module) => [module, ranges[module] ?? "*"]));
writeFileSync(
  `${root}/dist/${name}/package.json`,
  `${JSON.stringify(
    {
      name: library.name,
      version: library.version,
      description: libraries[name],
      type: "module",
      exports: { ".": { types: "./dist/index.d.ts", import: "./dist/index.js" } },
      files: ["dist", "README.md"],
      engines: { node: ">=20" },
      sideEffects: false,
      dependencies,
    },
    null,
    2,
  )}\n`,
);
// What a user of the package reads first: install, every method, the errors, its IAM.
copyFileSync(`${root}/packages/${name}/README.md`, `${root}/dist/${name}/README.md`);
run("npm", ["pack", "--pack-destination", ".."], `${root}/dist/${name}`);
