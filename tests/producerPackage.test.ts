import { execFile } from "node:child_process";
import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { createSqsClient } from "@rewards/core/aws";
import { HANG_GUARD_MS, stackTest, typecheckModule } from "@rewards/testing";
import { beforeAll, describe, expect } from "vitest";

const it = stackTest();
const exec = promisify(execFile);
const root = fileURLToPath(new URL("../", import.meta.url));

/** `npm run pack:producer`: what another repository installs, built once for these tests. */
beforeAll(async () => {
  await exec("node", ["scripts/packLibrary.mjs", "producer"], { cwd: root });
}, HANG_GUARD_MS);

async function typecheck(source: string): Promise<{ ok: boolean; output: string }> {
  const dir = `${root}dist/consumer-check`;
  await mkdir(dir, { recursive: true });
  return typecheckModule(`${dir}/consumer.ts`, source, root);
}

describe("the producer as a package for other repositories (npm run pack:producer)", () => {
  it(
    "its one declaration file types the builders: a correct call compiles, a missing field does not",
    async () => {
      const good = await typecheck(`import { createPublisher } from "../producer/dist/index.js";
const publisher = createPublisher({ queueUrl: "https://sqs.us-east-1.amazonaws.com/1/q", source: "/app" });
const results = await publisher.publish([publisher.events.articleShared({ userId: "u", articleSlug: "a", channel: "email" })]);
const first: boolean | undefined = results[0]?.ok;
export { first };
`);
      expect(good).toEqual({ ok: true, output: "" });
      const bad = await typecheck(`import { createPublisher } from "../producer/dist/index.js";
const publisher = createPublisher({ queueUrl: "https://sqs.us-east-1.amazonaws.com/1/q" });
publisher.events.articleShared({ userId: "u", articleSlug: "a" });
`);
      expect(bad.ok).toBe(false);
      expect(bad.output).toMatch(/channel/);
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
