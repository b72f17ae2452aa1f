import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";

/** One DynamoDB call as it went over the wire: when it arrived (after the client's socket pool) and when it was answered. */
export interface RecordedCall {
  operation: string;
  startMs: number;
  endMs: number;
}

/**
 * A pass-through HTTP hop in front of `target` (the fault proxy) that notes when each request
 * arrives and when its answer has gone back: the fault proxy's `observe` only sees answers.
 */
export async function startCallRecorder(target: string) {
  const url = new URL(target);
  const calls: RecordedCall[] = [];
  const server = createServer((incoming, outgoing) => {
    const startMs = performance.now();
    const operation =
      String(incoming.headers["x-amz-target"] ?? "")
        .split(".")
        .pop() ?? "";
    const upstream = request(
      {
        host: url.hostname,
        port: url.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (response) => {
        outgoing.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(outgoing);
        response.once("end", () => calls.push({ operation, startMs, endMs: performance.now() }));
      },
    );
    upstream.once("error", () => outgoing.destroy());
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    calls,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The critical-path depth of a set of calls: the number of waves, a wave being a maximal run
 * of calls (by arrival) that start before the first of them is answered. A call that waits on
 * another arrives after that one's answer, so waves never merge: the count is never below the
 * true depth. It can exceed it when the emulator's queue spreads one wave's answers over more
 * than a round trip (late members then look like a new wave): `spreadMs`, the widest spread of
 * answers within a wave, says whether that may have happened.
 */
export function waves(calls: readonly RecordedCall[]): { depth: number; spreadMs: number } {
  const sorted = [...calls].sort((a, b) => a.startMs - b.startMs);
  let depth = 0;
  let firstAnswer = Number.NEGATIVE_INFINITY;
  let spreadMs = 0;
  let answers: number[] = [];
  const close = () => {
    if (answers.length > 0) spreadMs = Math.max(spreadMs, Math.max(...answers) - Math.min(...answers));
  };
  for (const call of sorted) {
    if (call.startMs >= firstAnswer) {
      close();
      depth++;
      firstAnswer = call.endMs;
      answers = [call.endMs];
    } else {
      firstAnswer = Math.min(firstAnswer, call.endMs);
      answers.push(call.endMs);
    }
  }
  close();
  return { depth, spreadMs };
}
