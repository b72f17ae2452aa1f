import { quoteInput } from "@rewards/core";
import { type Parameter, type Problem, problemOf } from "./problem";

/** A request the read API answers, or the problem that answers it instead. Pure. */
export type Route =
  | { kind: "profile"; userId: string; timeZone?: string }
  | { kind: "awards"; userId: string; limit?: number; cursor?: string }
  | { kind: "achievements"; userId: string }
  | { kind: "board"; week?: string; limit?: number; cursor?: string }
  | { kind: "rules" }
  | { kind: "problem"; problem: Problem; allow?: string; route: string };

/** The route templates, as the logs and metrics name them (never with the user's id). */
export const ROUTES = {
  profile: "/users/{userId}",
  awards: "/users/{userId}/awards",
  achievements: "/users/{userId}/achievements",
  board: "/board",
  rules: "/rules",
} as const;

export interface RequestLine {
  method: string;
  path: string;
  /** The query string's parameters (a repeated one: its values joined by commas, as Lambda gives them). */
  query: Readonly<Record<string, string | undefined>>;
}

const invalid = (route: string, parameter: Parameter, detail: string): Route => ({
  kind: "problem",
  problem: problemOf("invalidParameter", `${parameter}: ${detail}`, parameter),
  route,
});

const notAllowed = (method: string, route: string): Route => ({
  kind: "problem",
  problem: problemOf("methodNotAllowed", `${quoteInput(method)} is not allowed here: only GET`),
  allow: "GET",
  route,
});

/** A page's `limit` and `cursor` from the query, as text: the reader judges the range and the cursor itself. */
function pageOf(
  route: string,
  query: RequestLine["query"],
): { limit?: number; cursor?: string } | { problem: Route } {
  const { limit, cursor } = query;
  // Text in a query string: only digits are a limit ("1e1", "0x10", " 5" are not).
  if (limit !== undefined && !/^\d{1,3}$/.test(limit))
    return {
      problem: invalid(route, "limit", `an integer from 1 to 100, not ${quoteInput(limit)}`),
    };
  if (cursor === "") return { problem: invalid(route, "cursor", "empty: leave it out for the first page") };
  return {
    ...(limit === undefined ? {} : { limit: Number(limit) }),
    ...(cursor === undefined ? {} : { cursor }),
  };
}

/**
 * `GET /users/{userId}?timeZone=`, `GET /users/{userId}/awards?limit=&cursor=`,
 * `GET /users/{userId}/achievements`, `GET /board?week=&limit=&cursor=` and `GET /rules`; the
 * rest 404 or 405.
 */
export function routeOf(request: RequestLine): Route {
  if (/^\/rules\/?$/.test(request.path))
    return request.method === "GET" ? { kind: "rules" } : notAllowed(request.method, ROUTES.rules);
  if (/^\/board\/?$/.test(request.path)) {
    if (request.method !== "GET") return notAllowed(request.method, ROUTES.board);
    const page = pageOf(ROUTES.board, request.query);
    if ("problem" in page) return page.problem;
    // The reader judges the week (an ISO week that exists); an empty one is never one.
    const { week } = request.query;
    if (week === "") return invalid(ROUTES.board, "week", "empty: leave it out for the current week");
    return { kind: "board", ...(week === undefined ? {} : { week }), ...page };
  }
  const match = /^\/users\/([^/]+)(\/awards|\/achievements)?\/?$/.exec(request.path);
  if (!match?.[1])
    return {
      kind: "problem",
      problem: problemOf(
        "notFound",
        `no resource at ${quoteInput(request.path)}: the routes are GET /users/{userId}, GET /users/{userId}/awards, GET /users/{userId}/achievements, GET /board and GET /rules`,
      ),
      route: "unmatched",
    };
  const route =
    match[2] === "/awards"
      ? ROUTES.awards
      : match[2] === "/achievements"
        ? ROUTES.achievements
        : ROUTES.profile;
  if (request.method !== "GET") return notAllowed(request.method, route);
  let userId: string;
  try {
    userId = decodeURIComponent(match[1]);
  } catch {
    return invalid(route, "userId", "not a valid percent-encoded path segment");
  }
  if (match[2] === "/achievements") return { kind: "achievements", userId };
  if (!match[2]) {
    // The reader judges the zone (an IANA name it knows); an empty one is never one.
    const { timeZone } = request.query;
    if (timeZone === "") return invalid(route, "timeZone", "empty: leave it out for UTC");
    return { kind: "profile", userId, ...(timeZone === undefined ? {} : { timeZone }) };
  }
  const page = pageOf(route, request.query);
  if ("problem" in page) return page.problem;
  return { kind: "awards", userId, ...page };
}
