import { callField, describeError, embeddedMetrics } from "@rewards/core/aws";
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from "aws-lambda";
import { answerRequest } from "./answerRequest";
import type { ReadApiDeps } from "./readApiDeps";

export type FunctionUrlHandler = (
  event: APIGatewayProxyEventV2,
  context: Context,
) => Promise<APIGatewayProxyStructuredResultV2>;

/**
 * A Lambda function URL handler (payload format 2.0) over fixed dependencies. One log line
 * per request (method, route template, status, ms: never the user's id or data at info) and
 * one EMF line (requests, 4xx, 5xx, latency; dimensions `service` = rewards-read-api and `stage`).
 */
export function createHandler(deps: ReadApiDeps): FunctionUrlHandler {
  const clock = deps.clock ?? Date.now;
  const emit = deps.emitMetrics ?? ((line: string) => process.stdout.write(`${line}\n`));
  return async (event) => {
    const started = clock();
    const method = event.requestContext?.http?.method ?? "GET";
    const { response, route, error } = await answerRequest(deps.reader, {
      method,
      path: event.rawPath ?? event.requestContext?.http?.path ?? "/",
      query: event.queryStringParameters ?? {},
    });
    const ms = clock() - started;
    const status = response.statusCode ?? 200;
    const line = { method, route, status, ms };
    if (error !== undefined)
      deps.logger.error({ ...line, error: describeError(error), ...callField(error) }, "request failed");
    else deps.logger.info(line, "request");
    emit(
      embeddedMetrics(
        { service: "rewards-read-api", stage: deps.stage },
        { requests: 1, "4xx": status >= 400 && status < 500 ? 1 : 0, "5xx": status >= 500 ? 1 : 0 },
        ms,
        started,
        "latency",
      ),
    );
    return response;
  };
}
