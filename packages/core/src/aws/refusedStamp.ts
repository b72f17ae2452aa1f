import type { AttributeValue } from "@aws-sdk/client-dynamodb";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import { cancellationReasons } from "./classifyError";

/**
 * Whether a cancelled transaction's profile update (item `profileIndex`) refused its stamp
 * (PROFILE_STAMP_CONDITION: the profile changed at or after it), and the profile's `updatedAt`
 * its ALL_OLD returned, as it is (absent when it returned none). Undefined when the profile did
 * not refuse.
 */
export function refusedStamp(error: unknown, profileIndex: number): { updatedAt?: unknown } | undefined {
  const reason = cancellationReasons(error)?.[profileIndex];
  if (reason?.Code !== "ConditionalCheckFailed") return undefined;
  const updatedAt = reason.Item
    ? unmarshall(reason.Item as Record<string, AttributeValue>).updatedAt
    : undefined;
  return { updatedAt };
}
