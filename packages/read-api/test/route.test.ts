import { createReader, InvalidReadInput, TableNotFoundError, ThrottledReadError } from "@rewards/reader";
import { describe, expect, it } from "vitest";
import { answerRequest } from "../src/function/answerRequest";
import { failureOf } from "../src/function/failureOf";
import { problemTypes } from "../src/function/problem";
import { routeOf } from "../src/function/route";

const get = (path: string, query: Record<string, string> = {}) => routeOf({ method: "GET", path, query });

describe("routeOf: the read API's four routes, and the problems of everything else", () => {
  it.each([
    ["/users/u1", { kind: "profile", userId: "u1" }],
    ["/users/u1/", { kind: "profile", userId: "u1" }],
    ["/users/a%2Fb%23c", { kind: "profile", userId: "a/b#c" }],
    ["/users/u1/awards", { kind: "awards", userId: "u1" }],
    ["/users/u%20x/awards/", { kind: "awards", userId: "u x" }],
    ["/users/u1/achievements", { kind: "achievements", userId: "u1" }],
    ["/users/u1/achievements/", { kind: "achievements", userId: "u1" }],
    ["/users/a%2Fb/achievements", { kind: "achievements", userId: "a/b" }],
    // A user whose id is "achievements" is a user: its profile, its achievements.
    ["/users/achievements", { kind: "profile", userId: "achievements" }],
    ["/users/achievements/achievements", { kind: "achievements", userId: "achievements" }],
    ["/board", { kind: "board" }],
    ["/board/", { kind: "board" }],
    // A user whose id is "board" is a user.
    ["/users/board", { kind: "profile", userId: "board" }],
  ])("GET %s → %j", (path, route) => {
    expect(get(path)).toEqual(route);
  });

  it("reads limit (digits only) and cursor from the query", () => {
    expect(get("/users/u/awards", { limit: "2", cursor: "abc" })).toEqual({
      kind: "awards",
      userId: "u",
      limit: 2,
      cursor: "abc",
    });
    // Out of range is the reader's to refuse (it names the range): the route hands it on.
    expect(get("/users/u/awards", { limit: "0" })).toEqual({ kind: "awards", userId: "u", limit: 0 });
  });

  it("reads the profile's timeZone from the query, as it is: the reader judges the zone", () => {
    expect(get("/users/u", { timeZone: "Europe/Paris" })).toEqual({
      kind: "profile",
      userId: "u",
      timeZone: "Europe/Paris",
    });
    expect(get("/users/u/", { timeZone: "Mars/Olympus" })).toEqual({
      kind: "profile",
      userId: "u",
      timeZone: "Mars/Olympus",
    });
    // Absent: no timeZone at all (the reader's UTC), not `timeZone: undefined`.
    expect(Object.keys(get("/users/u"))).toEqual(["kind", "userId"]);
    // Only the profile reads it: elsewhere it is ignored, like any unknown query parameter.
    expect(get("/users/u/achievements", { timeZone: "" })).toEqual({ kind: "achievements", userId: "u" });
    expect(get("/users/u/awards", { timeZone: "Europe/Paris" })).toEqual({ kind: "awards", userId: "u" });
  });

  it("reads the board's week, limit and cursor from the query, as they are: the reader judges them", () => {
    expect(get("/board", { week: "2026-W49", limit: "5", cursor: "abc" })).toEqual({
      kind: "board",
      week: "2026-W49",
      limit: 5,
      cursor: "abc",
    });
    // A week that does not exist and a limit out of range are the reader's to refuse (it names them).
    expect(get("/board/", { week: "2025-W53", limit: "0" })).toEqual({
      kind: "board",
      week: "2025-W53",
      limit: 0,
    });
    // Absent: none at all (the reader's current week, its 20), not `week: undefined`.
    expect(Object.keys(get("/board"))).toEqual(["kind"]);
    // The profile's parameter is not the board's: ignored, like any unknown query parameter.
    expect(get("/board", { timeZone: "" })).toEqual({ kind: "board" });
  });

  it.each([
    [{ week: "" }, "week", "week: empty: leave it out for the current week"],
    [{ limit: "1e1" }, "limit", 'limit: an integer from 1 to 100, not "1e1"'],
    [{ limit: "" }, "limit", 'limit: an integer from 1 to 100, not ""'],
    [{ cursor: "" }, "cursor", "cursor: empty: leave it out for the first page"],
  ])("the board's %j is a 400 naming %s", (query, parameter, detail) => {
    expect(get("/board", query)).toEqual({
      kind: "problem",
      problem: {
        type: problemTypes.invalidParameter.type,
        title: "Invalid parameter",
        status: 400,
        detail,
        parameter,
      },
      route: "/board",
    });
  });

  it("an empty timeZone is a 400 naming timeZone", () => {
    expect(get("/users/u", { timeZone: "" })).toEqual({
      kind: "problem",
      problem: {
        type: problemTypes.invalidParameter.type,
        title: "Invalid parameter",
        status: 400,
        detail: "timeZone: empty: leave it out for UTC",
        parameter: "timeZone",
      },
      route: "/users/{userId}",
    });
  });

  it.each([["abc"], ["1.5"], [""], ["-1"], ["1e1"], [" 5"], ["0x10"], ["1000"]])(
    "limit=%j is a 400 naming limit",
    (limit) => {
      expect(get("/users/u/awards", { limit })).toEqual({
        kind: "problem",
        problem: {
          type: problemTypes.invalidParameter.type,
          title: "Invalid parameter",
          status: 400,
          detail: `limit: an integer from 1 to 100, not ${JSON.stringify(limit)}`,
          parameter: "limit",
        },
        route: "/users/{userId}/awards",
      });
    },
  );

  it("an empty cursor and a bad escape in the user id are 400s naming them", () => {
    expect(get("/users/u/awards", { cursor: "" })).toMatchObject({
      kind: "problem",
      problem: { status: 400, parameter: "cursor" },
    });
    expect(get("/users/%E0%A4%A/awards")).toMatchObject({
      kind: "problem",
      problem: {
        status: 400,
        parameter: "userId",
        detail: "userId: not a valid percent-encoded path segment",
      },
    });
  });

  it.each([
    ["/"],
    ["/nope"],
    ["/users"],
    ["/users/"],
    ["/users/u/awards/x"],
    ["/users/u/profile"],
    ["/users/u/achievements/x"],
    ["/users/u/achievement"],
    ["/users/u/achievements//"],
    ["/board/2026-W49"],
    ["/boards"],
    ["/users/u/board"],
  ])("%s is a 404", (path) => {
    expect(get(path)).toMatchObject({
      kind: "problem",
      problem: { type: problemTypes.notFound.type, status: 404, title: "No such resource" },
    });
  });

  it.each([["POST"], ["PUT"], ["DELETE"], ["HEAD"]])("%s on a route is a 405 that allows GET", (method) => {
    for (const [path, route] of [
      ["/users/u", "/users/{userId}"],
      ["/users/u/awards", "/users/{userId}/awards"],
      ["/users/u/achievements", "/users/{userId}/achievements"],
      ["/users/u/achievements/", "/users/{userId}/achievements"],
      // A user whose id starts with "awards" is still the profile's route.
      ["/users/awardsfan", "/users/{userId}"],
      ["/board", "/board"],
      ["/board/", "/board"],
    ] as const)
      expect(routeOf({ method, path, query: {} })).toEqual({
        kind: "problem",
        problem: {
          type: problemTypes.methodNotAllowed.type,
          title: "Method not allowed",
          status: 405,
          detail: `"${method}" is not allowed here: only GET`,
        },
        allow: "GET",
        route,
      });
  });

  it("a user id of dots is a user id: %2e and %2E%2E are the users '.' and '..'", () => {
    expect(get("/users/%2e/awards")).toEqual({ kind: "awards", userId: "." });
    expect(get("/users/%2E%2E")).toEqual({ kind: "profile", userId: ".." });
  });

  it("a 404 names the five routes", () => {
    expect(get("/users/u/achievements/x")).toEqual({
      kind: "problem",
      problem: {
        type: problemTypes.notFound.type,
        title: "No such resource",
        status: 404,
        detail:
          'no resource at "/users/u/achievements/x": the routes are GET /users/{userId}, GET /users/{userId}/awards, GET /users/{userId}/achievements, GET /board and GET /rules',
      },
      route: "unmatched",
    });
  });

  it("another method on an unknown path is a 404, not a 405", () => {
    expect(routeOf({ method: "POST", path: "/nope", query: {} })).toMatchObject({ problem: { status: 404 } });
  });
});

describe("failureOf: what a failed read answers", () => {
  const aws = (name: string, status: number) =>
    Object.assign(new Error(`${name} happened`), { name, $metadata: { httpStatusCode: status } });

  it.each([
    [new InvalidReadInput("userId", "must be 1 to 256 characters"), "userId"],
    [new InvalidReadInput("limit", "an integer from 1 to 100, not 0"), "limit"],
    [new InvalidReadInput("cursor", "not a cursor this reader gave"), "cursor"],
    [
      new InvalidReadInput(
        "timeZone",
        'an IANA time zone such as "Europe/Paris" or "UTC", not "Mars/Olympus"',
      ),
      "timeZone",
    ],
    [new InvalidReadInput("week", 'an ISO week such as "2026-W49", not "2025-W53"'), "week"],
  ])("the reader's %s is a 400 naming its parameter", (error, parameter) => {
    expect(failureOf(error)).toEqual({
      type: problemTypes.invalidParameter.type,
      title: "Invalid parameter",
      status: 400,
      detail: error.message,
      parameter,
    });
  });

  it("the parameter is the error's field, never read from its message", () => {
    // A message that names another parameter first: the field decides.
    const error = new InvalidReadInput("cursor", "limit: looks like another");
    expect(failureOf(error)).toMatchObject({
      status: 400,
      parameter: "cursor",
      detail: "cursor: limit: looks like another",
    });
    // A RangeError that is not the reader's refusal is no 400, whatever its message says.
    expect(failureOf(new RangeError("limit: an integer from 1 to 100, not 0"))).toMatchObject({
      status: 500,
    });
  });

  it.each([
    [aws("ProvisionedThroughputExceededException", 400)],
    [aws("ThrottlingException", 400)],
    [aws("InternalServerError", 500)],
    [Object.assign(new Error("socket hang up"), { code: "ECONNRESET" })],
    [Object.assign(new Error("timed out"), { name: "TimeoutError" })],
    [new ThrottledReadError(2, 8, 1003)],
  ])("%s is a 503 that says nothing of the cause", (error) => {
    expect(failureOf(error)).toEqual({
      type: problemTypes.unavailable.type,
      title: "Temporarily unavailable",
      status: 503,
      detail: "the rewards table could not be read just now; try again shortly",
    });
  });

  it.each([
    [aws("ResourceNotFoundException", 400)],
    [new TableNotFoundError("no-such-table", { cause: aws("ResourceNotFoundException", 400) })],
    [aws("AccessDeniedException", 400)],
    [aws("ValidationException", 400)],
    [new TypeError("x is not a function")],
    [new RangeError("Invalid time value")],
    ["a string"],
  ])("%s is a 500 that says nothing of the cause", (error) => {
    const problem = failureOf(error);
    expect(problem).toEqual({
      type: problemTypes.internal.type,
      title: "Internal error",
      status: 500,
      detail: "the request could not be answered; the failure is in the read API's log",
    });
  });
});

describe("a problem's detail quotes at most the first 64 characters of an input", () => {
  // 257 characters: one past the longest user id the envelope takes.
  const long = `${"u".repeat(64)}${"Ω".repeat(193)}`;
  const quoted = `"${"u".repeat(64)}…" (257 characters)`;
  // Refused before anything is read: the reader's client is never built.
  const reader = createReader({ tableName: "t" });

  it.each([
    ["the user id (the reader's refusal)", "GET", `/users/${encodeURIComponent(long)}`, {}, 400],
    ["the user id, of the awards", "GET", `/users/${encodeURIComponent(long)}/awards`, {}, 400],
    ["a limit", "GET", "/users/u/awards", { limit: long }, 400],
    ["a time zone", "GET", "/users/u", { timeZone: long }, 400],
    ["a week", "GET", "/board", { week: long }, 400],
    ["a method", long, "/users/u", {}, 405],
    ["a path", "GET", `/${long}`, {}, 404],
  ] as const)("%s", async (_what, method, path, query, status) => {
    const { response } = await answerRequest(reader, { method, path, query });
    expect(response.statusCode).toBe(status);
    const { detail } = JSON.parse(String(response.body)) as { detail: string };
    expect(detail).not.toContain("Ω");
    expect(detail).toContain(path === `/${long}` ? `"/${"u".repeat(63)}…" (258 characters)` : quoted);
  });
});
