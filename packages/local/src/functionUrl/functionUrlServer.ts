import type { IncomingMessage } from "node:http";
import type { FunctionRuntime } from "../functionRuntime/functionRuntime";
import { type LoopbackServer, listenOnLoopback } from "../loopbackServer";
import { functionUrlEvent } from "./functionUrlEvent";
import { functionUrlResponse } from "./functionUrlResponse";

export interface FunctionUrlServerOptions {
  runtime: Pick<FunctionRuntime, "invoke">;
  /** Sees every request answered: what the function said, or why it could not (an invocation error). */
  onRequest?: (request: {
    method: string;
    path: string;
    status: number;
    ms: number;
    error?: unknown;
  }) => void;
}

/** The largest request body a function URL accepts (6 MB, Lambda's synchronous payload). */
const MAX_BODY_BYTES = 6 * 1024 * 1024;

async function bodyOf(incoming: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of incoming) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * A Lambda function URL on this machine: an HTTP server on 127.0.0.1 that invokes the
 * function through the local function runtime with the event AWS builds, and answers what
 * the function returns. As on AWS, an invocation that fails (an error thrown, a timeout, a
 * crash) is a 502 with no detail. It does not check SigV4 signatures: a signed request and an
 * unsigned one are both served (the deployed URL's IAM auth is the infra's, asserted there).
 */
export async function startFunctionUrlServer(options: FunctionUrlServerOptions): Promise<LoopbackServer> {
  return listenOnLoopback(async (incoming, outgoing) => {
    const started = Date.now();
    const method = incoming.method ?? "GET";
    const path = new URL(incoming.url ?? "/", "http://localhost").pathname;
    const body = await bodyOf(incoming);
    if (body === undefined) {
      outgoing
        .writeHead(413, { "content-type": "application/json" })
        .end('{"Message":"Request Entity Too Large"}');
      options.onRequest?.({ method, path, status: 413, ms: Date.now() - started });
      return;
    }
    const event = functionUrlEvent(
      {
        method,
        url: incoming.url ?? "/",
        headers: incoming.headers,
        sourceIp: incoming.socket.remoteAddress ?? "127.0.0.1",
      },
      body,
      new Date(),
    );
    try {
      const answer = functionUrlResponse(await options.runtime.invoke(event));
      outgoing.writeHead(answer.status, answer.headers).end(answer.body);
      options.onRequest?.({ method, path, status: answer.status, ms: Date.now() - started });
    } catch (error) {
      outgoing
        .writeHead(502, { "content-type": "application/json" })
        .end('{"Message":"Internal Server Error"}');
      options.onRequest?.({ method, path, status: 502, ms: Date.now() - started, error });
    }
  });
}
