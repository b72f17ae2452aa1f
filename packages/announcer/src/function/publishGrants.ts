import {
  type EventBridgeClient,
  PutEventsCommand,
  type PutEventsRequestEntry,
} from "@aws-sdk/client-eventbridge";
import {
  type Announcement,
  MAX_PUT_EVENTS_BYTES,
  MAX_PUT_EVENTS_ENTRIES,
  putEventsEntryBytes,
} from "@rewards/core";
import {
  type AwsCall,
  callField,
  classifyError,
  type Deadline,
  describeError,
  type RetryPolicy,
  retryRemainder,
  signalFor,
} from "@rewards/core/aws";
import { resources } from "@rewards/core/deploy";

export interface PublishDeps {
  client: EventBridgeClient;
  busName: string;
  clock: () => number;
  retryPolicy?: RetryPolicy | undefined;
}

/** Why a grant was not published; `configuration` when the deployment, not the moment, is at fault (a missing bus, denied access). */
export interface Unpublished {
  reason: string;
  configuration: boolean;
  /** The PutEvents call that failed, as fields (absent when the bus refused entries one by one). */
  call?: AwsCall;
}

interface Pending {
  key: string;
  entry: PutEventsRequestEntry;
  bytes: number;
}

/** The bus entry of an announcement: source `rewards`, detail-type its type (`reward.granted`, `reward.revoked`, `reward.achieved`), time its time (awardedAt, revokedAt, earnedAt), detail the CloudEvent. */
export function busEntry(grant: Announcement, busName: string): PutEventsRequestEntry {
  return {
    EventBusName: busName,
    Source: resources.bus.source,
    DetailType: grant.type,
    Time: new Date(grant.time),
    Detail: JSON.stringify(grant),
  };
}

/** Consecutive chunks of at most 10 entries and 256 KB, in order. */
function chunks(pending: readonly Pending[]): Pending[][] {
  const result: Pending[][] = [];
  let current: Pending[] = [];
  let bytes = 0;
  for (const item of pending) {
    if (
      current.length === MAX_PUT_EVENTS_ENTRIES ||
      (current.length > 0 && bytes + item.bytes > MAX_PUT_EVENTS_BYTES)
    ) {
      result.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += item.bytes;
  }
  if (current.length > 0) result.push(current);
  return result;
}

/**
 * Publishes grants in order, at most 10 a call, retrying only the entries EventBridge
 * failed (and whole calls that failed transiently) within the retry policy and `deadline`.
 * Returns, by key, what could not be published and why: the caller reports those records.
 * Never throws.
 */
export async function publishGrants(
  deps: PublishDeps,
  grants: ReadonlyArray<{ key: string; grant: Announcement }>,
  deadline: Deadline,
): Promise<Map<string, Unpublished>> {
  const failed = new Map<string, Unpublished>();
  const pending = grants.map(({ key, grant }) => {
    const entry = busEntry(grant, deps.busName);
    return { key, entry, bytes: putEventsEntryBytes(entry) };
  });
  for (const chunk of chunks(pending)) {
    const lastErrors = new Map<string, { name: string; message: string }>();
    const { remainder, error } = await retryRemainder(
      chunk,
      async (batch) => {
        // Stryker disable next-line ArrayDeclaration: no list and a list of anything but results publish nothing alike
        const { Entries = [] } = await deps.client.send(
          new PutEventsCommand({ Entries: batch.map((p) => p.entry) }),
          {
            abortSignal: signalFor(deadline, deps.clock()),
          },
        );
        // Entries answer in request order; one with an ErrorCode was not published.
        return batch.filter((item, i) => {
          const answer = Entries[i];
          if (answer?.EventId && !answer.ErrorCode) return false;
          lastErrors.set(item.key, {
            name: answer?.ErrorCode ?? "NoAnswer",
            message: answer?.ErrorMessage ?? "no EventId returned",
          });
          return true;
        });
      },
      {
        policy: deps.retryPolicy,
        deadline,
        clock: deps.clock,
        shouldRetry: (failure) => classifyError(failure) === "transient",
      },
    );
    for (const item of remainder) {
      const cause = lastErrors.get(item.key) ?? error;
      failed.set(item.key, {
        reason: describeError(cause),
        configuration: classifyError(cause) === "configuration",
        ...callField(cause),
      });
    }
  }
  return failed;
}
