import { describe, expect, it } from "vitest";
import { functionUrlEvent } from "../src/functionUrl/functionUrlEvent";
import { functionUrlResponse } from "../src/functionUrl/functionUrlResponse";

const request = (url: string, headers: Record<string, string | string[]> = {}) =>
  functionUrlEvent({ method: "GET", url, headers, sourceIp: "127.0.0.1" }, Buffer.alloc(0), new Date(0));

describe("the local function URL's event (payload format 2.0)", () => {
  it("hands on the path as sent: dot segments, encoded or not, are not resolved", () => {
    for (const url of ["/users/%2e/awards", "/users/%2E%2E", "/users/a%2Fb"]) {
      const event = request(url);
      expect([event.rawPath, event.requestContext.http.path]).toEqual([url, url]);
    }
  });

  it("the query string raw and parsed (a repeated parameter's values joined by commas), headers joined", () => {
    const event = request("/users/u/awards?limit=1&limit=2&cursor=a%3Db", { "x-a": ["1", "2"], host: "h" });
    expect(event).toMatchObject({
      version: "2.0",
      routeKey: "$default",
      rawPath: "/users/u/awards",
      rawQueryString: "limit=1&limit=2&cursor=a%3Db",
      queryStringParameters: { limit: "1,2", cursor: "a=b" },
      headers: { "x-a": "1,2", host: "h" },
      isBase64Encoded: false,
    });
    expect(request("/users/u").queryStringParameters).toBeUndefined();
  });

  it("reads the function's answer as AWS does: a structured result, or a bare value as a JSON 200", () => {
    expect(functionUrlResponse({ statusCode: 404, headers: { "Content-Type": "x" }, body: "no" })).toEqual({
      status: 404,
      headers: { "content-type": "x" },
      body: Buffer.from("no"),
    });
    expect(functionUrlResponse({ a: 1 })).toEqual({
      status: 200,
      headers: { "content-type": "application/json" },
      body: Buffer.from('{"a":1}'),
    });
  });
});
