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
