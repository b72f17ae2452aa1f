import { execFile } from "node:child_process";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createDynamoBaseClient } from "@rewards/core/aws";
import { createReader } from "@rewards/reader";
import { completed, HANG_GUARD_MS, stackTest, typecheckModules } from "@rewards/testing";
import { beforeAll, describe, expect } from "vitest";
import { award, ownTable } from "./fixtures/announcerFixtures";
import { writeHistoryOfStream } from "./fixtures/historyFixtures";

const it = stackTest();
const exec = promisify(execFile);
const root = fileURLToPath(new URL("../", import.meta.url));
/** A site's repository: the packed reader installed from its tarball, nothing of the workspace's source. */
const site = `${root}dist/reader-site`;

/** `npm run pack:reader`, then the tarball unpacked where a site's `npm install` puts it. */
beforeAll(async () => {
  await exec(process.execPath, ["scripts/packLibrary.mjs", "reader"], { cwd: root });
  const { version } = JSON.parse(await readFile(`${root}packages/reader/package.json`, "utf8"));
  await rm(site, { recursive: true, force: true });
  await mkdir(`${site}/node_modules/@rewards/reader`, { recursive: true });
  await writeFile(`${site}/package.json`, '{ "name": "site", "private": true, "type": "module" }\n');
  await exec("tar", [
    "-xzf",
    `${root}dist/rewards-reader-${version}.tgz`,
    "-C",
    `${site}/node_modules/@rewards/reader`,
    "--strip-components=1",
  ]);
}, HANG_GUARD_MS);

/** Runs `source` as a module of the site, with only `env` (no inherited variables). */
async function runInSite(source: string, env: Record<string, string> = {}) {
  await writeFile(`${site}/read.mjs`, source);
  return exec(process.execPath, ["read.mjs"], { cwd: site, env });
}

describe("the reader as a package for other repositories (npm run pack:reader)", () => {
  it("its package declares exactly what its one bundle imports, and nothing of the workspace", async () => {
    const manifest = JSON.parse(await readFile(`${site}/node_modules/@rewards/reader/package.json`, "utf8"));
    expect(Object.keys(manifest.dependencies)).toEqual([
      "@aws-sdk/client-dynamodb",
      "@aws-sdk/util-dynamodb",
      "zod",
    ]);
    expect(manifest.exports).toEqual({ ".": { types: "./dist/index.d.ts", import: "./dist/index.js" } });
    const bundle = await readFile(`${site}/node_modules/@rewards/reader/dist/index.js`, "utf8");
    const imported = [...bundle.matchAll(/from "([^"]+)"/g)].map((m) => m[1]);
    // Node's own (the cursor's digest, the backoff's waits) and the three dependencies.
    expect([...new Set(imported)].sort()).toEqual([
      "@aws-sdk/client-dynamodb",
      "@aws-sdk/util-dynamodb",
      "node:crypto",
      "node:timers/promises",
      "zod",
    ]);
    // Embeddable: it reads no variable and brings no logger.
    expect(bundle).not.toMatch(/process\.env|pino|console\./);
  });

  it("importing it and creating a reader does nothing: no output, no variable needed, no connection", async () => {
    const run = await runInSite(`import { createReader, levelOf } from "@rewards/reader";
createReader({ tableName: "t", dailyCap: 50 });
process.stdout.write(JSON.stringify(levelOf(260)));
`);
    expect(run).toEqual({ stdout: '{"level":3,"xpFloor":250,"xpNext":500}', stderr: "" });
  });

  it("its errors are classes a site switches on: InvalidReadInput's parameter, InvalidReaderOption's option", async () => {
    const run = await runInSite(`import {
  createReader, InvalidReadInput, InvalidReaderOption, READ_PARAMETERS, TableNotFoundError, ThrottledReadError,
} from "@rewards/reader";
const caught = async (read) => { try { await read(); } catch (error) { return error; } };
// Refused before anything is read: no client, no connection, no variable needed.
const input = await caught(() => createReader({ tableName: "t", dailyCap: 0 }).history("u", { cursor: "garbage" }));
const option = await caught(() => createReader({ tableName: "t", dailyCap: "50" }));
process.stdout.write(JSON.stringify({
  parameters: READ_PARAMETERS,
  input: [input instanceof InvalidReadInput, input instanceof RangeError, input.name, input.parameter, input.message],
  option: [option instanceof InvalidReaderOption, option instanceof RangeError, option.option, option.message],
  others: [new TableNotFoundError("t").message, new ThrottledReadError(1, 8, 1002).message],
}));
`);
    expect(JSON.parse(run.stdout)).toEqual({
      parameters: ["userId", "limit", "cursor", "timeZone", "week"],
      input: [
        true,
        true,
        "InvalidReadInput",
        "cursor",
        "cursor: not a cursor this reader gave for this user's history (pass the page's cursor as it is)",
      ],
      option: [
        true,
        true,
        "dailyCap",
        'dailyCap: a whole number of XP, 0 or absent for no cap (the deploy output dailyXpCap), not "50"',
      ],
      others: [
        "the table \"t\" does not exist where the reader's client looks: check tableName (the deploy output tableName) and the client's region and endpoint",
        "BatchGetItem left 1 key(s) unprocessed after 8 calls over 1002 ms (throttled): try again later",
      ],
    });
    expect(run.stderr).toBe("");
  });

  it("its README is in the tarball: install, createReader and each method, every function and error class it exports, its IAM, the docs", async () => {
    const { version } = JSON.parse(await readFile(`${root}packages/reader/package.json`, "utf8"));
    const { stdout: listed } = await exec("tar", ["-tzf", `${root}dist/rewards-reader-${version}.tgz`]);
    expect(listed.split("\n").filter(Boolean).sort()).toEqual([
      "package/README.md",
      "package/dist/index.d.ts",
      "package/dist/index.js",
      "package/package.json",
    ]);
    const manifest = JSON.parse(await readFile(`${site}/node_modules/@rewards/reader/package.json`, "utf8"));
    expect(manifest.files).toEqual(["dist", "README.md"]);
    const readme = await readFile(`${site}/node_modules/@rewards/reader/README.md`, "utf8");
    // What the installed package exports, asked of it: its functions and classes, the errors
    // among them, and a reader's methods.
    const run = await runInSite(`import * as exported from "@rewards/reader";
const functions = Object.keys(exported).filter((name) => typeof exported[name] === "function");
const errors = functions.filter((name) => exported[name].prototype instanceof Error);
const methods = Object.keys(exported.createReader({ tableName: "t" }));
process.stdout.write(JSON.stringify({ functions, errors, methods }));
`);
    const { functions, errors, methods } = JSON.parse(run.stdout) as Record<string, string[]>;
    expect(errors).toEqual(
      expect.arrayContaining([
        "InvalidReadInput",
        "InvalidReaderOption",
        "TableNotFoundError",
        "ThrottledReadError",
        "UnreadableItemError",
      ]),
    );
    expect(methods).toEqual(expect.arrayContaining(["profile", "history", "achievements", "board"]));
    for (const name of functions ?? []) expect(readme, name).toContain(`\`${name}`);
    // Each method with its example; rules() too, whether or not this build has it yet.
    for (const method of new Set([...(methods ?? []), "rules"])) {
      expect(readme, method).toContain(`### \`reader.${method}(`);
      expect(readme, method).toContain(`await reader.${method}(`);
    }
    for (const said of [
      `npm install ./rewards-reader-${version}.tgz`,
      "dynamodb:GetItem",
      "dynamodb:BatchGetItem",
      "dynamodb:Query",
      "table/<tableName>/index/board",
      "docs/reading.md",
    ])
      expect(readme).toContain(said);
  });

  it("its declaration file cites the docs, never the spec or the design notes", async () => {
    const declarations = await readFile(`${site}/node_modules/@rewards/reader/dist/index.d.ts`, "utf8");
    expect(declarations).toContain("docs/reading.md");
    expect(declarations.match(/SPEC|DESIGN\.md|§/g)).toBeNull();
  });

  it(
    "installed in a site, it reads what the workspace's reader reads",
    async ({ stack }) => {
      const table = await ownTable(stack);
      await award(table.env, [completed("site-reader", "a"), completed("site-reader", "b")]);
      await writeHistoryOfStream(table.env, table.streamArn);
      const run = await runInSite(
        `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { createReader } from "@rewards/reader";
const client = new DynamoDBClient({
  region: "us-east-1",
  endpoint: process.argv[2] ?? ${JSON.stringify(table.env.AWS_ENDPOINT_URL_DYNAMODB)},
  credentials: { accessKeyId: "test", secretAccessKey: "test" },
});
const reader = createReader({ tableName: ${JSON.stringify(table.tableName)}, client });
const [profile, history] = await Promise.all([reader.profile("site-reader"), reader.history("site-reader", { limit: 1 })]);
process.stdout.write(JSON.stringify({ profile, history, next: await reader.history("site-reader", { cursor: history.cursor }) }));
`,
      );
      const workspace = createReader({
        tableName: table.tableName,
        client: createDynamoBaseClient(table.env),
      });
      const first = await workspace.history("site-reader", { limit: 1 });
      expect(JSON.parse(run.stdout)).toEqual({
        profile: await workspace.profile("site-reader"),
        history: first,
        next: await workspace.history("site-reader", { ...(first.cursor ? { cursor: first.cursor } : {}) }),
      });
      expect(JSON.parse(run.stdout).profile).toMatchObject({ xp: 40, awards: 2 });
    },
    HANG_GUARD_MS,
  );

  it(
    "its one declaration file types it: a correct call compiles, a limit given as text does not",
    async () => {
      const errors = await typecheckModules(
        {
          [`${site}/good.ts`]: `import { createReader, InvalidReadInput, type Profile } from "@rewards/reader";
const reader = createReader({ tableName: "t" });
const profile: Profile = await reader.profile("u");
const page = await reader.history("u", { limit: 2 });
export const shown: [number, number, string | undefined] = [profile.level.xpNext, page.awards.length, page.cursor];
const board = await reader.board({ limit: 2 });
export const top: [string, number | undefined, number | undefined] = [board.week, board.entries[0]?.rank, profile.week.rank];
export const named = (error: unknown): "userId" | "limit" | "cursor" | "timeZone" | "week" | undefined =>
  error instanceof InvalidReadInput ? error.parameter : undefined;
`,
          [`${site}/bad.ts`]: `import { createReader } from "@rewards/reader";
await createReader({ tableName: "t" }).history("u", { limit: "2" });
`,
        },
        root,
      );
      // Only the bad call is refused: nothing in the good file, nothing in the declaration file.
      expect(Object.keys(errors)).toEqual([`${site}/bad.ts`]);
      expect(errors[`${site}/bad.ts`]).toEqual([
        expect.stringMatching(
          /bad\.ts\(2,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/,
        ),
      ]);
    },
    HANG_GUARD_MS,
  );
});
