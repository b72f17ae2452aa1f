import { Writable } from "node:stream";
import { createLogger } from "@rewards/core/aws";
import type { Reader } from "@rewards/reader";
import type { APIGatewayProxyEventV2, Context } from "aws-lambda";
import { describe, expect, it } from "vitest";
import { createHandler } from "../src/function/createHandler";

const silent = createLogger({
  destination: new Writable({ write: (_c, _e, done) => done() }),
  level: "silent",
});

/** A reader the request never reaches: an unknown route is answered 404 before any read. */
const unreachable = new Proxy({} as Reader, {
  get: () => () => Promise.reject(new Error("no read expected")),
});

describe("the read API's EMF line", () => {
  it("one per request: requests, 4xx, 5xx and latency, by its service in its stage", async () => {
    const lines: string[] = [];
    let now = 1_700_000_000_000;
    const handler = createHandler({
      reader: unreachable,
      logger: silent,
      stage: "pr-42",
      clock: () => (now += 5),
      emitMetrics: (line) => lines.push(line),
    });
    const event = {
      rawPath: "/nowhere",
      requestContext: { http: { method: "GET", path: "/nowhere" } },
    } as unknown as APIGatewayProxyEventV2;
    const response = await handler(event, {} as Context);
    expect(response.statusCode).toBe(404);
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      {
        _aws: {
          Timestamp: 1_700_000_000_005,
          CloudWatchMetrics: [
            {
              Namespace: "Rewards",
              // ReadApiErrors filters on both: another stage's 5xx never reach it.
              Dimensions: [["service", "stage"]],
              Metrics: [
                { Name: "requests", Unit: "Count" },
                { Name: "4xx", Unit: "Count" },
                { Name: "5xx", Unit: "Count" },
                { Name: "latency", Unit: "Milliseconds" },
              ],
            },
          ],
        },
        service: "rewards-read-api",
        stage: "pr-42",
        requests: 1,
        "4xx": 1,
        "5xx": 0,
        latency: 5,
      },
    ]);
  });
});

describe("the read API's log of a failed read", () => {
  it("names the call in words and as fields; the problem document says nothing of it", async () => {
    const logged: Record<string, unknown>[] = [];
    const logger = createLogger({
      destination: new Writable({
        write: (chunk, _encoding, done) => {
          logged.push(JSON.parse(String(chunk)));
          done();
        },
      }),
    });
    const call = {
      service: "DynamoDB",
      operation: "BatchGetItem",
      resource: "table rewards-prod",
      endpoint: "https://dynamodb.us-east-1.amazonaws.com",
    };
    // As our clients throw it: the SDK's TimeoutError, with the call it was (withNamedCalls).
    const timedOut = Object.assign(
      new Error(
        "@smithy/node-http-handler - [ERROR] a request has exceeded the configured 5000 ms requestTimeout.",
      ),
      { name: "TimeoutError", code: "ETIMEDOUT", $metadata: { attempts: 2 }, awsCall: call },
    );
    const reader = new Proxy({} as Reader, { get: () => () => Promise.reject(timedOut) });
    const handler = createHandler({ reader, logger, stage: "prod", emitMetrics: () => {} });
    const event = {
      rawPath: "/users/u1",
      requestContext: { http: { method: "GET", path: "/users/u1" } },
    } as unknown as APIGatewayProxyEventV2;
    const response = await handler(event, {} as Context);
    expect(response.statusCode).toBe(503);
    // A caller can act on "try again"; the table, the endpoint and the SDK's words are ours.
    expect(response.body).not.toMatch(/rewards-prod|amazonaws|BatchGetItem|requestTimeout/);
    expect(logged).toEqual([
      expect.objectContaining({
        level: 50,
        msg: "request failed",
        status: 503,
        error:
          "DynamoDB BatchGetItem on table rewards-prod at https://dynamodb.us-east-1.amazonaws.com: timed out after 5000 ms (requestTimeout)",
        call,
      }),
    ]);
  });
});
