import type { ParkedMessage } from "@rewards/core";

/** Which parked messages `dlq peek` and `dlq replay` take: an absent field takes every one. */
export interface ReplayFilter {
  type?: string | undefined;
  error?: string | undefined;
  user?: string | undefined;
}

export function matches(parked: ParkedMessage, filter: ReplayFilter): boolean {
  return (
    (filter.type === undefined || parked.type === filter.type) &&
    (filter.error === undefined || parked.error === filter.error) &&
    (filter.user === undefined || parked.userId === filter.user)
  );
}
