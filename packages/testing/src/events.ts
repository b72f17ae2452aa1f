import { randomUUID } from "node:crypto";

/** A valid CloudEvent body for tests; `id` is fresh each call, as a new emission's would be. */
export function eventBody(
  type: string,
  data: Record<string, unknown>,
  overrides: Record<string, unknown> = {},
): string {
  return JSON.stringify({
    specversion: "1.0",
    id: `evt-${randomUUID()}`,
    source: "/tests",
    type,
    // Now: test events are always young enough to be judged (docs/events.md, "Event time").
    time: new Date().toISOString(),
    datacontenttype: "application/json",
    data,
    ...overrides,
  });
}

export const completed = (userId: string, articleSlug: string) =>
  eventBody("article.completed", { userId, articleSlug });
export const signup = (userId: string) => eventBody("signup.completed", { userId });
