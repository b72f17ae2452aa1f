import { Writable } from "node:stream";
import { describe, expect, it, vi } from "vitest";
import {
  createEventBridgeClient,
  createLogger,
  createSqsClient,
  RetriesExhaustedError,
  retry,
} from "../src/aws";
import { credentials } from "../src/aws/sdkClientOptions";
import { seededRandom } from "../src/domain";

describe("createLogger", () => {
  it("writes JSON lines named for the process, at info unless told otherwise", () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = createLogger({ destination });
    logger.debug("hidden");
    logger.info({ n: 1 }, "shown");
    createLogger({ destination, name: "rewards-worker", level: "debug" }).debug("named");
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      { level: 30, time: expect.any(String), name: "rewards", n: 1, msg: "shown" },
      { level: 20, time: expect.any(String), name: "rewards-worker", msg: "named" },
    ]);
  });
});

describe("retry", () => {
  it("running out is a RetriesExhaustedError that says how often it tried", async () => {
    const failure = retry(async () => Promise.reject(new Error("no")), {
      shouldRetry: () => true,
      policy: { maxAttempts: 2, baseDelayMs: 0, maxDelayMs: 0, maxElapsedMs: 1000 },
    });
    await expect(failure).rejects.toMatchObject({
      name: "RetriesExhaustedError",
      message: "gave up after 2 attempt(s)",
    });
    await expect(failure).rejects.toBeInstanceOf(RetriesExhaustedError);
  });

  it("really waits between attempts (its default sleep)", async () => {
    vi.useFakeTimers();
    try {
      let attempts = 0;
      const result = retry(
        async () => {
          attempts++;
          if (attempts === 1) throw new Error("once");
          return "ok";
        },
        {
          shouldRetry: () => true,
          random: () => 0.999,
          policy: { maxAttempts: 2, baseDelayMs: 40, maxDelayMs: 40, maxElapsedMs: 1000 },
        },
      );
      await vi.advanceTimersByTimeAsync(38);
      expect(attempts).toBe(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(attempts).toBe(2);
      await expect(result).resolves.toBe("ok");
    } finally {
      vi.useRealTimers();
    }
  });

  it("a retry whose wait ends exactly at the deadline still starts", async () => {
    let attempts = 0;
    await retry(
      async () => {
        attempts++;
        if (attempts === 1) throw new Error("once");
      },
      {
        shouldRetry: () => true,
        random: () => 0.5,
        clock: () => 0,
        sleep: async () => {},
        deadline: 50,
        policy: { maxAttempts: 3, baseDelayMs: 100, maxDelayMs: 100, maxElapsedMs: 1000 },
      },
    );
    expect(attempts).toBe(2);
  });
});

/** The request handler's timeouts, as the SDK resolves them. */
async function timeoutsOf(client: { config: { requestHandler: unknown } }) {
  const handler = client.config.requestHandler as { configProvider: Promise<Record<string, unknown>> };
  const { connectionTimeout, requestTimeout, throwOnRequestTimeout } = await handler.configProvider;
  return { connectionTimeout, requestTimeout, throwOnRequestTimeout };
}
const BOUNDED = { connectionTimeout: 2000, requestTimeout: 5000, throwOnRequestTimeout: true };

describe("SDK clients", () => {
  it("take explicit keys only when both are given; otherwise the SDK's own provider chain", () => {
    expect(credentials({ AWS_ACCESS_KEY_ID: "a" })).toBeUndefined();
    expect(credentials({ AWS_SECRET_ACCESS_KEY: "s" })).toBeUndefined();
    expect(
      credentials({ AWS_ACCESS_KEY_ID: "a", AWS_SECRET_ACCESS_KEY: "s", AWS_SESSION_TOKEN: "t" }),
    ).toEqual({
      accessKeyId: "a",
      secretAccessKey: "s",
      sessionToken: "t",
    });
  });

  it("are bounded: 2 s to connect, 5 s to answer (enforced), 3 SDK attempts for SQS", async () => {
    const client = createSqsClient({ AWS_REGION: "us-east-1" });
    expect(await client.config.maxAttempts()).toBe(3);
    expect(await timeoutsOf(client)).toEqual(BOUNDED);
    client.destroy();
  });

  it("the bus's: AWS_ENDPOINT_URL_EVENTBRIDGE, the config's keys, 3 SDK attempts, the same timeouts", async () => {
    const client = createEventBridgeClient({
      AWS_REGION: "eu-west-1",
      AWS_ENDPOINT_URL_EVENTBRIDGE: "http://127.0.0.1:4010",
      AWS_ACCESS_KEY_ID: "a",
      AWS_SECRET_ACCESS_KEY: "s",
    });
    expect(await client.config.region()).toBe("eu-west-1");
    expect(await client.config.endpoint?.()).toMatchObject({ hostname: "127.0.0.1", port: 4010 });
    expect(await client.config.credentials()).toMatchObject({ accessKeyId: "a", secretAccessKey: "s" });
    expect(await client.config.maxAttempts()).toBe(3);
    expect(await timeoutsOf(client)).toEqual(BOUNDED);
    client.destroy();
  });
});

describe("seededRandom", () => {
  it("reproduces mulberry32's sequence for a seed", () => {
    const random = seededRandom(1);
    expect([random(), random(), random()]).toEqual([
      0.6270739405881613, 0.002735721180215478, 0.5274470399599522,
    ]);
  });
});
