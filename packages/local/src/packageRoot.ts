import { createRequire } from "node:module";
import { dirname } from "node:path";

/**
 * The directory of a workspace package (`@rewards/local`, `@rewards/worker`, …), found
 * through its `./package.json` export rather than a path relative to this file: the same
 * answer from the TypeScript source and from the CLI's bundle (packages/cli/dist), where
 * `import.meta.url` is the bundle's.
 */
export function packageRoot(name: `@rewards/${string}`): string {
  return dirname(createRequire(import.meta.url).resolve(`${name}/package.json`));
}
