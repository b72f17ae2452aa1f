import { execFile } from "node:child_process";
import { mkdir, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { createSqsClient } from "@rewards/core/aws";
import { HANG_GUARD_MS, stackTest, typecheckModules } from "@rewards/testing";
import { beforeAll, describe, expect } from "vitest";

const it = stackTest();
const exec = promisify(execFile);
const root = fileURLToPath(new URL("../", import.meta.url));

/** `npm run pack:producer`: what another repository installs, built once for these tests. */
beforeAll(async () => {
  await exec(process.execPath, ["scripts/packLibrary.mjs", "producer"], { cwd: root });
}, HANG_GUARD_MS);

describe("the producer as a package for other repositories (npm run pack:producer)", () => {
  it("its README is in the tarball: install, createPublisher, publish, each builder, every function and error class it exports, results, its IAM, the docs", async () => {
    const { version } = JSON.parse(await readFile(`${root}packages/producer/package.json`, "utf8"));
    const tarball = `${root}dist/rewards-producer-${version}.tgz`;
    const { stdout: listed } = await exec("tar", ["-tzf", tarball]);
    expect(listed.split("\n").filter(Boolean).sort()).toEqual([
      "package/README.md",
      "package/dist/index.d.ts",
      "package/dist/index.js",
      "package/package.json",
    ]);
    const readme = (await exec("tar", ["-xzOf", tarball, "package/README.md"], { maxBuffer: 1 << 20 }))
      .stdout;
    // What the packed bundle exports, asked of it: its functions and classes, the errors among
    // them, a publisher's methods and its builders.
    const exported = (await import(`${root}dist/producer/dist/index.js`)) as Record<string, unknown>;
    const functions = Object.keys(exported).filter((name) => typeof exported[name] === "function");
    const errors = functions.filter(
      (name) => (exported[name] as { prototype?: unknown }).prototype instanceof Error,
    );
    expect(errors).toEqual(["PublisherOptionsError"]);
    const { createPublisher } = exported as typeof import("@rewards/producer");
    const publisher = createPublisher({ queueUrl: "https://sqs.us-east-1.amazonaws.com/1/q" });
    expect(Object.keys(publisher).sort()).toEqual(["events", "publish"]);
    for (const name of functions) expect(readme, name).toContain(`\`${name}`);
    expect(readme).toContain("await publisher.publish(");
    for (const builder of Object.keys(publisher.events)) expect(readme, builder).toContain(`\`${builder}({`);
    for (const said of [
      `npm install ./rewards-producer-${version}.tgz`,
      "{ ok: true, index, messageId }",
      "{ ok: false, index, error }",
      "## Partial failures",
      '"Action": "sqs:SendMessage"',
      "docs/publishing.md",
    ])
      expect(readme).toContain(said);
  });

  it(
    "its one declaration file types the builders: a correct call compiles, a missing field does not",
    async () => {
      const dir = `${root}dist/consumer-check`;
      await mkdir(dir, { recursive: true });
      const errors = await typecheckModules(
        {
          [`${dir}/good.ts`]: `import { createPublisher } from "../producer/dist/index.js";
const publisher = createPublisher({ queueUrl: "https://sqs.us-east-1.amazonaws.com/1/q", source: "/app" });
const results = await publisher.publish([publisher.events.articleShared({ userId: "u", articleSlug: "a", channel: "email" })]);
const first: boolean | undefined = results[0]?.ok;
export { first };
`,
          [`${dir}/bad.ts`]: `import { createPublisher } from "../producer/dist/index.js";
const publisher = createPublisher({ queueUrl: "https://sqs.us-east-1.amazonaws.com/1/q" });
publisher.events.articleShared({ userId: "u", articleSlug: "a" });
`,
        },
        root,
      );
      // Only the bad call is refused: nothing in the good file, nothing in the declaration file.
      expect(Object.keys(errors)).toEqual([`${dir}/bad.ts`]);
      expect(errors[`${dir}/bad.ts`]).toEqual([
        expect.stringMatching(/^dist\/consumer-check\/bad\.ts\(3,\d+\): error TS2345: .*channel/),
      ]);
    },
    HANG_GUARD_MS,
  );

  it("its bundle publishes valid events and refuses invalid ones, as the workspace package does", async ({
    env,
    queues,
  }) => {
    const { createPublisher } = (await import(
      `${root}dist/producer/dist/index.js`
    )) as typeof import("@rewards/producer");
    const sqs = createSqsClient({ ...env, AWS_REGION: "us-east-1" });
    const publisher = createPublisher({ queueUrl: queues.queueUrl, client: sqs, source: "/packaged" });
    const results = await publisher.publish([
      publisher.events.signupCompleted({ userId: "packaged" }),
      { specversion: "1.0", id: "x", source: "/p", type: "signup.completed", data: { userId: "" } },
    ]);
    expect(results).toMatchObject([{ ok: true }, { ok: false, error: expect.stringMatching(/userId/) }]);
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: queues.queueUrl, MessageAttributeNames: ["All"] }),
    );
    expect(JSON.parse(Messages[0]?.Body ?? "{}")).toMatchObject({
      type: "signup.completed",
      source: "/packaged",
    });
    expect(Messages[0]?.MessageAttributes?.type?.StringValue).toBe("signup.completed");
  });
});
