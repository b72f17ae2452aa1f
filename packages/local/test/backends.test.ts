import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LocalStackError, startLocalStack } from "../src";

const motoChildren = () => {
  try {
    return execFileSync("ps", ["-o", "args=", "--ppid", String(process.pid)], { encoding: "utf8" })
      .split("\n")
      .filter((line) => line.includes("dynamodb_server.py")).length;
  } catch {
    return 0;
  }
};

describe("a machine without moto", () => {
  it("names what to install instead of crashing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "no-moto-"));
    execFileSync("python3", ["-m", "venv", "--without-pip", dir]); // a Python that lacks moto
    const saved = process.env.REWARDS_PYTHON;
    process.env.REWARDS_PYTHON = join(dir, "bin", "python");
    try {
      const failure = startLocalStack();
      await expect(failure).rejects.toMatchObject({
        name: "LocalStackError",
        code: "moto_missing",
        message: expect.stringMatching(
          /moto\[server\] is not importable.*pip install 'moto\[server\]==5\.2\.1'/,
        ),
      });
    } finally {
      if (saved === undefined) delete process.env.REWARDS_PYTHON;
      else process.env.REWARDS_PYTHON = saved;
    }
    expect(motoChildren()).toBe(0);
  });
});

describe("other backends", () => {
  it("uses endpoints already set in the environment and only provisions them", async () => {
    const first = await startLocalStack();
    try {
      const second = await startLocalStack({
        env: {
          AWS_ENDPOINT_URL_SQS: first.endpoints.sqs,
          AWS_ENDPOINT_URL_DYNAMODB: first.endpoints.dynamodb,
        },
        tableName: "rewards-second",
        queueName: "second-events",
        dlqName: "second-events-dlq",
      });
      expect(second.backends).toEqual({ sqs: "external", dynamodb: "external", eventbridge: "local-bus" });
      expect({ ...second.endpoints, eventbridge: "" }).toEqual({ ...first.endpoints, eventbridge: "" });
      // The stream is the second table's own.
      expect(second.resources.streamArn).toContain(":table/rewards-second/stream/");
      expect(second.resources.queueUrl).toBe(`${first.endpoints.sqs}/000000000000/second-events`);
      expect(motoChildren()).toBe(1);
      await second.stop(); // stops nothing it did not start
      expect(motoChildren()).toBe(1);
    } finally {
      await first.stop();
    }
  });

  it("REWARDS_LOCAL=containers without a container runtime is a clear error, not a crash", async () => {
    const failure = startLocalStack({ env: { REWARDS_LOCAL: "containers" } });
    await expect(failure).rejects.toBeInstanceOf(LocalStackError);
    await expect(failure).rejects.toMatchObject({
      code: "container_runtime_missing",
      message: expect.stringMatching(/needs a running Docker \(or compatible\) engine/),
    });
  });
});
