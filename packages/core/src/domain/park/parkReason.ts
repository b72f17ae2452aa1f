/** Why a message can never succeed; the value of the `rewards.error` DLQ attribute. */
export const PARK_CODES = ["invalid_json", "invalid_event", "unknown_type", "stale", "rejected"] as const;
export type ParkCode = (typeof PARK_CODES)[number];

export interface ParkReason {
  code: ParkCode;
  /** Human-readable, at most MAX_REASON_LENGTH characters. */
  reason: string;
}

const MAX_REASON_LENGTH = 1000;

export function parkReason(code: ParkCode, reason: string): ParkReason {
  const text = [...reason];
  const clipped =
    text.length <= MAX_REASON_LENGTH ? reason : `${text.slice(0, MAX_REASON_LENGTH - 1).join("")}…`;
  return { code, reason: clipped };
}
