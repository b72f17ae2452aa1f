import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// Every module of the award path loads: the schemas and tables built when a module is
// imported are built without throwing (a throw there fails Lambda's init). The imports
// happen inside the tests, so a module that cannot load fails a test, not the file.
// The domain's concerns are subfolders (events/, award/, …): each folder is read with its subfolders.
const moduleFiles = (folder: string) =>
  readdirSync(fileURLToPath(new URL(folder, import.meta.url)), { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".ts"))
    .sort()
    .map((name) => `${folder}${name}`);

describe("the functions' modules load", () => {
  it.each([
    ...moduleFiles("../src/domain/"),
    ...moduleFiles("../src/aws/"),
    ...moduleFiles("../src/deploy/"),
    ...moduleFiles("../../worker/src/function/"),
    ...moduleFiles("../../announcer/src/function/"),
  ])("%s", async (path) => {
    await expect(import(path)).resolves.toBeTypeOf("object");
  });
});
