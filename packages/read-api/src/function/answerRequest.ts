import type { Reader } from "@rewards/reader";
import type { APIGatewayProxyStructuredResultV2 } from "aws-lambda";
import { failureOf } from "./failureOf";
import { jsonAnswer, problemAnswer } from "./httpAnswer";
import type { Problem } from "./problem";
import { type RequestLine, ROUTES, type Route, routeOf } from "./route";

export interface Answered {
  response: APIGatewayProxyStructuredResultV2;
  /** The route's template (`/users/{userId}`), or `unmatched`: what the log and the metrics name. */
  route: string;
  /** The error behind a 5xx, for the log (never in the body). */
  error?: unknown;
}

/** One request: its route, the reader's answer, or the problem that answers instead. */
export async function answerRequest(reader: Reader, request: RequestLine): Promise<Answered> {
  const route = routeOf(request);
  if (route.kind === "problem")
    return {
      response: problemAnswer(route.problem, route.allow ? { Allow: route.allow } : {}),
      route: route.route,
    };
  const name = ROUTES[route.kind];
  try {
    const body = await bodyOf(reader, route);
    return { response: jsonAnswer(body), route: name };
  } catch (error) {
    const problem: Problem = failureOf(error);
    return {
      response: problemAnswer(problem, problem.status === 503 ? { "Retry-After": "1" } : {}),
      route: name,
      ...(problem.status >= 500 ? { error } : {}),
    };
  }
}

/** A page's limit and cursor as the request gave them: an absent one is left to the reader's default. */
const pageGiven = ({ limit, cursor }: { limit?: number; cursor?: string }) => ({
  ...(limit === undefined ? {} : { limit }),
  ...(cursor === undefined ? {} : { cursor }),
});

/** What the reader answers a route with: the body of a 200. */
function bodyOf(reader: Reader, route: Exclude<Route, { kind: "problem" }>): Promise<unknown> {
  switch (route.kind) {
    case "profile":
      return reader.profile(route.userId, route.timeZone === undefined ? {} : { timeZone: route.timeZone });
    case "achievements":
      return reader.achievements(route.userId);
    case "awards":
      return reader.history(route.userId, pageGiven(route));
    case "board":
      return reader.board({ ...(route.week === undefined ? {} : { week: route.week }), ...pageGiven(route) });
    case "rules":
      return reader.rules();
  }
}
