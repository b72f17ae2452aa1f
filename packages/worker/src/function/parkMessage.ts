import { SendMessageCommand } from "@aws-sdk/client-sqs";
import type { ParkReason } from "@rewards/core";
import { type Deadline, signalFor } from "@rewards/core/aws";
import type { SQSRecord } from "aws-lambda";
import { parkedMessageOf } from "./parkedMessageOf";
import { clockOf, type WorkerDeps } from "./workerDeps";

/**
 * Copies the message to the DLQ, ending by `deadline` whatever the endpoint does. Throws
 * if it cannot (no DLQ_URL, too large, refused, timed out): the caller reports it `failed`.
 */
export async function parkMessage(
  deps: Pick<WorkerDeps, "sqs" | "dlqUrl" | "clock">,
  record: SQSRecord,
  park: ParkReason,
  deadline: Deadline,
): Promise<void> {
  if (!deps.dlqUrl) throw new Error("DLQ_URL is not set");
  const clock = clockOf(deps);
  const message = parkedMessageOf(record, park, new Date(clock()), deps.dlqUrl.endsWith(".fifo"));
  await deps.sqs.send(new SendMessageCommand({ QueueUrl: deps.dlqUrl, ...message }), {
    abortSignal: signalFor(deadline, clock()),
  });
}
