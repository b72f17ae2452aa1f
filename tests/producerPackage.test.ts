import { execFile } from "node:child_process";
import { mkdir } from "node:fs/promises";
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
