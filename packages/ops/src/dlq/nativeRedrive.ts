import { setTimeout as delay } from "node:timers/promises";
import {
  GetQueueAttributesCommand,
  ListMessageMoveTasksCommand,
  type SQSClient,
  StartMessageMoveTaskCommand,
} from "@aws-sdk/client-sqs";
import { decodeEvent, type ParkedMessage, plural, readParkedMessage } from "@rewards/core";
import { OperationError } from "../operationError";
import { queueCounts } from "../queues/queueCounts";
import { holdMessages, release } from "./heldMessages";

const HOLD_SECONDS = 120;

async function arnOf(sqs: SQSClient, queueUrl: string): Promise<string> {
  const { Attributes } = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ["QueueArn"] }),
  );
  if (!Attributes?.QueueArn) throw new OperationError(`no QueueArn for ${queueUrl}`);
  return Attributes.QueueArn;
}

/**
 * A parked message judged, once replayed, by when it reaches the queue again: an event
 * without a time in a copy without `rewards.firstSentAt`. Native replay cannot add that
 * attribute; a filtered replay sends the copy's SentTimestamp along.
 */
function agedByArrivalOnly(parked: ParkedMessage): boolean {
  if (parked.firstSentAtAttribute) return false;
  const decoded = decodeEvent(parked.body);
  return decoded.ok && decoded.award.time === undefined;
}

/**
 * SQS's own redrive (StartMessageMoveTask): fast and server-side, but all or nothing —
 * no filters, no restoring `rewards.overflow`, no removing extra copies. Refused while the
 * DLQ holds a message it would make look new (agedByArrivalOnly).
 */
export async function replayNative(
  sqs: SQSClient,
  dlqUrl: string,
  queueUrl: string,
  options: { rate?: number | undefined; onProgress?: (moved: number, total: number) => void } = {},
): Promise<{ moved: number; status: string }> {
  const held = await holdMessages(sqs, dlqUrl, (await queueCounts(sqs, dlqUrl)).visible, HOLD_SECONDS);
  await release(sqs, dlqUrl, held);
  const unsafe = held.map(readParkedMessage).filter(agedByArrivalOnly);
  if (unsafe.length > 0) {
    throw new OperationError(
      `--native would move ${plural(unsafe.length, "message")} whose event has no time and that carry no rewards.firstSentAt ` +
        "(copies the redrive policy moved): SQS may date them anew, and an event older than its rule's memory could then " +
        "pay twice. Replay them without --native, which sends when they first entered the queue along.",
    );
  }
  const [sourceArn, destinationArn] = [await arnOf(sqs, dlqUrl), await arnOf(sqs, queueUrl)];
  try {
    await sqs.send(
      new StartMessageMoveTaskCommand({
        SourceArn: sourceArn,
        DestinationArn: destinationArn,
        ...(options.rate ? { MaxNumberOfMessagesPerSecond: Math.floor(options.rate) } : {}),
      }),
    );
  } catch (error) {
    const name = (error as Error).name;
    if (/InvalidAction|UnknownOperation|UnsupportedOperation|NotImplemented/i.test(name)) {
      throw new OperationError(
        `--native needs SQS's StartMessageMoveTask, which this endpoint does not offer (the local stack does not): replay without --native`,
      );
    }
    throw error;
  }
  for (;;) {
    const { Results = [] } = await sqs.send(
      new ListMessageMoveTasksCommand({ SourceArn: sourceArn, MaxResults: 1 }),
    );
    const task = Results[0];
    const moved = task?.ApproximateNumberOfMessagesMoved ?? 0;
    options.onProgress?.(moved, task?.ApproximateNumberOfMessagesToMove ?? moved);
    if (task?.Status && task.Status !== "RUNNING") {
      if (task.Status !== "COMPLETED")
        throw new OperationError(
          `the move task ended ${task.Status}: ${task.FailureReason ?? "no reason given"}`,
        );
      return { moved, status: task.Status };
    }
    await delay(2000);
  }
}
