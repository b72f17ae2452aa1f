import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createReadApiClient, regionOf, userSegment } from "../src/readApiClient";
import { ReadApiError } from "../src/readApiError";
import { profileOf } from "./fixtures";

/** A stand-in read API on a loopback port: answers with `answer` and keeps what it was asked. */
async function startApi(answer: (request: IncomingMessage, response: ServerResponse) => void) {
  const requests: IncomingMessage[] = [];
  const server = createServer((request, response) => {
    requests.push(request);
    answer(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const stop = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  stops.push(stop);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

const json =
  (status: number, body: unknown, type = "application/json") =>
  (_: IncomingMessage, response: ServerResponse) => {
    response.writeHead(status, { "content-type": type });
    response.end(JSON.stringify(body));
  };

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe("userSegment", () => {
  it("keeps any id one path segment: slashes, dots and dot-dot encoded", () => {
    expect(userSegment("a/b")).toBe("a%2Fb");
    expect(userSegment("..")).toBe("%2E%2E");
    expect(userSegment("../board")).toBe("%2E%2E%2Fboard");
    expect(userSegment("a b?c#d")).toBe("a%20b%3Fc%23d");
  });
});

describe("regionOf", () => {
  it("reads the region off a function URL, else the one given", () => {
    expect(regionOf(new URL("https://abc.lambda-url.eu-west-1.on.aws/"), "us-east-2")).toBe("eu-west-1");
    expect(regionOf(new URL("http://127.0.0.1:4000/"), "us-east-2")).toBe("us-east-2");
  });
});

describe("createReadApiClient", () => {
  it("GETs the routes with the user id as one segment, and parses the answer", async () => {
    const api = await startApi(json(200, profileOf({ userId: "a/b" })));
    const client = createReadApiClient({ url: api.url, credentials: "unsigned" });
    expect(await client.profile("a/b", "Europe/Paris")).toEqual(profileOf({ userId: "a/b" }));
    expect(api.requests[0]?.url).toBe("/users/a%2Fb?timeZone=Europe%2FParis");
    expect(api.requests[0]?.headers.authorization).toBeUndefined();
  });

  it("signs with SigV4 for lambda in the URL's region when it has credentials", async () => {
    const api = await startApi(json(200, { week: "2026-W49", entries: [] }));
    const client = createReadApiClient({
      url: api.url,
      region: "eu-west-1",
      credentials: async () => ({
        accessKeyId: "AKIDEXAMPLE",
        secretAccessKey: "secret",
        sessionToken: "token",
      }),
    });
    expect(await client.board(10)).toEqual({ week: "2026-W49", entries: [] });
    const headers = api.requests[0]?.headers ?? {};
    expect(headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/lambda\/aws4_request, SignedHeaders=\S*host\S*, Signature=[0-9a-f]{64}$/,
    );
    expect(headers["x-amz-security-token"]).toBe("token");
    expect(api.requests[0]?.url).toBe("/board?limit=10");
  });

  it("a 4xx problem is `refused`, with the API's detail and parameter", async () => {
    const problem = {
      title: "Invalid parameter",
      status: 400,
      detail: "userId: too long",
      parameter: "userId",
    };
    const api = await startApi(json(400, problem, "application/problem+json"));
    const error = await failureOf(
      createReadApiClient({ url: api.url, credentials: "unsigned" }).achievements("x"),
    );
    expect(error).toBeInstanceOf(ReadApiError);
    expect(error).toMatchObject({
      kind: "refused",
      status: 400,
      parameter: "userId",
      message: "userId: too long",
    });
  });

  it("reads GET /rules' campaigns; a 404 (an API without the route) is no rules, not a failure", async () => {
    const campaign = {
      id: "c1",
      title: "Double XP",
      types: ["article.completed"],
      from: "2026-12-01T00:00:00Z",
      to: "2026-12-08T00:00:00Z",
      multiplier: 2,
    };
    const api = await startApi(json(200, { version: 2, types: [], achievements: [], campaigns: [campaign] }));
    expect(await createReadApiClient({ url: api.url, credentials: "unsigned" }).rules()).toEqual({
      version: 2,
      campaigns: [campaign],
    });
    expect(api.requests[0]?.url).toBe("/rules");
    const old = await startApi(json(404, { title: "Not found", status: 404 }, "application/problem+json"));
    expect(await createReadApiClient({ url: old.url, credentials: "unsigned" }).rules()).toBeUndefined();
    const odd = await startApi(json(200, { rules: "none" }));
    expect(
      await failureOf(createReadApiClient({ url: odd.url, credentials: "unsigned" }).rules()),
    ).toMatchObject({
      kind: "unavailable",
      message: "the read API's answer to rules is not the contract's",
    });
  });

  it("a 404 elsewhere is still a refusal", async () => {
    const api = await startApi(
      json(404, { detail: "no such route", status: 404 }, "application/problem+json"),
    );
    expect(
      await failureOf(createReadApiClient({ url: api.url, credentials: "unsigned" }).achievements("x")),
    ).toMatchObject({ kind: "refused", status: 404 });
  });

  it("a 5xx, an answer that is not the contract's, a closed port and a timeout are `unavailable`", async () => {
    const down = await startApi(json(503, { title: "Unavailable" }));
    const odd = await startApi(json(200, { hello: "proxy" }));
    const silent = await startApi(() => {});
    const closed = await startApi(json(200, {}));
    await stops.pop()?.();
    const failures = await Promise.all([
      failureOf(createReadApiClient({ url: down.url, credentials: "unsigned" }).profile("ann")),
      failureOf(createReadApiClient({ url: odd.url, credentials: "unsigned" }).profile("ann")),
      failureOf(
        createReadApiClient({ url: silent.url, credentials: "unsigned", timeoutMs: 100 }).profile("ann"),
      ),
      failureOf(createReadApiClient({ url: closed.url, credentials: "unsigned" }).profile("ann")),
    ]);
    expect(failures.map((error) => (error as ReadApiError).kind)).toEqual([
      "unavailable",
      "unavailable",
      "unavailable",
      "unavailable",
    ]);
    expect((failures[0] as ReadApiError).message).toBe("the read API answered HTTP 503");
    expect((failures[1] as ReadApiError).message).toBe(
      "the read API's answer to users/ann is not the contract's",
    );
    expect((failures[3] as ReadApiError).message).toContain("ECONNREFUSED");
  });
});
