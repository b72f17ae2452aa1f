import { completed, runCli, stackTest } from "@rewards/testing";
import { describe, expect } from "vitest";

/**
 * A failure names what is at fault: the variable a wrong queue URL came from, and, for a
 * connection refused, the endpoint, its variable and the likely cause, said once.
 */
const it = stackTest();

describe("failure messages name the variable and the endpoint at fault", () => {
  it("grants tail: a queue that does not exist is GRANTS_QUEUE_URL's, not QUEUE_URL's or DLQ_URL's", async ({
    env,
  }) => {
    const wrong = (env.QUEUE_URL as string).replace(/[^/]+$/, "no-such-grants-queue");
    const { QUEUE_URL: _queue, DLQ_URL: _dlq, ...rest } = env;
    const run = await runCli(["grants", "tail"], { ...rest, GRANTS_QUEUE_URL: wrong });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(
      new RegExp(
        `^rewards: queue does not exist here \\(check GRANTS_QUEUE_URL "${wrong.replace(/[.]/g, "\\.")}", AWS_ENDPOINT_URL_SQS\\): .+\\n$`,
      ),
    );
    expect(run.stderr).not.toMatch(/\bQUEUE_URL "|DLQ_URL/);
  });

  it("publish with the stack down: connection refused said once, with the endpoint and the hint", async () => {
    const down = {
      QUEUE_URL: "http://127.0.0.1:1/000000000000/rewards-events",
      AWS_ENDPOINT_URL_SQS: "http://127.0.0.1:1",
      AWS_REGION: "us-east-1",
      AWS_ACCESS_KEY_ID: "test",
      AWS_SECRET_ACCESS_KEY: "test",
    };
    const lines = [completed("u1", "a"), completed("u1", "b"), "not json", completed("u1", "c")];
    const run = await runCli(["publish", "-"], down, `${lines.join("\n")}\n`);
    expect(run).toEqual({
      code: 1,
      stdout:
        `line 3: error not JSON: Unexpected token 'o', "not json" is not valid JSON\n` +
        "0 published, 4 failed (3 lines not sent: the queue could not be reached)\n",
      stderr:
        "rewards: cannot reach SQS at http://127.0.0.1:1 (connection refused, from AWS_ENDPOINT_URL_SQS): is `rewards dev` running? Otherwise check AWS_ENDPOINT_URL_SQS\n",
    });
    const json = await runCli(["publish", "-", "--json"], down, `${lines.join("\n")}\n`);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      published: 0,
      failed: 4,
      unreachable:
        "cannot reach SQS at http://127.0.0.1:1 (connection refused, from AWS_ENDPOINT_URL_SQS): is `rewards dev` running? Otherwise check AWS_ENDPOINT_URL_SQS",
    });
  });
});
