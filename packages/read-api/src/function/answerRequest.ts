import type { Reader } from "@rewards/reader";
import type { APIGatewayProxyStructuredResultV2 } from "aws-lambda";
import { failureOf } from "./failureOf";
import { jsonAnswer, problemAnswer } from "./httpAnswer";
import type { Problem } from "./problem";
import { type RequestLine, ROUTES, routeOf } from "./route";

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
    const body =
      route.kind === "profile"
        ? await reader.profile(route.userId, route.timeZone === undefined ? {} : { timeZone: route.timeZone })
        : route.kind === "achievements"
          ? await reader.achievements(route.userId)
          : await reader.history(route.userId, {
              ...(route.limit === undefined ? {} : { limit: route.limit }),
              ...(route.cursor === undefined ? {} : { cursor: route.cursor }),
            });
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
