import type { Envelope, EventType, RuleData } from "@rewards/core";
import { monotonicFactory } from "ulid";

const nextUlid = monotonicFactory();

/** A new emission id: `evt-` + a ULID, sortable by creation time. */
function newEventId(): string {
  return `evt-${nextUlid()}`;
}

/** A typed reading event; `data` is exactly what its rule requires. */
export type RewardEvent<T extends EventType = EventType> = Omit<Envelope, "type" | "data"> & {
  type: T;
  data: RuleData<T>;
};

export interface EventBuilders {
  articleCompleted(data: RuleData<"article.completed">): RewardEvent<"article.completed">;
  articleShared(data: RuleData<"article.shared">): RewardEvent<"article.shared">;
  streakDay(data: RuleData<"streak.day">): RewardEvent<"streak.day">;
  signupCompleted(data: RuleData<"signup.completed">): RewardEvent<"signup.completed">;
}

/**
 * Builders that fill the envelope: `specversion`, a fresh sortable `id`, `time` (now) and
 * the publisher's `source`. The caller supplies only what happened.
 */
export function createEventBuilders(source: string, clock: () => Date = () => new Date()): EventBuilders {
  const build = <T extends EventType>(type: T, data: RuleData<T>): RewardEvent<T> => ({
    specversion: "1.0",
    id: newEventId(),
    source,
    type,
    time: clock().toISOString(),
    datacontenttype: "application/json",
    data,
  });
  return {
    articleCompleted: (data) => build("article.completed", data),
    articleShared: (data) => build("article.shared", data),
    streakDay: (data) => build("streak.day", data),
    signupCompleted: (data) => build("signup.completed", data),
  };
}
