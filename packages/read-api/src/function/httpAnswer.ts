import type { APIGatewayProxyStructuredResultV2 } from "aws-lambda";
import type { Problem } from "./problem";

/** Every answer is one moment of a user's rewards or of a week's board: never cached by a browser or a proxy. */
const NO_STORE = { "Cache-Control": "no-store" } as const;

export function jsonAnswer(body: unknown): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: 200,
    headers: { "Content-Type": "application/json", ...NO_STORE },
    body: JSON.stringify(body),
  };
}

export function problemAnswer(
  problem: Problem,
  extraHeaders: Record<string, string> = {},
): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: problem.status,
    headers: { "Content-Type": "application/problem+json", ...NO_STORE, ...extraHeaders },
    body: JSON.stringify(problem),
  };
}
