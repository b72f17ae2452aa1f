import {
  type Announcement,
  quoteInput,
  rewardAchievedSchema,
  rewardGrantedSchema,
  rewardRevokedSchema,
} from "@rewards/core";

/** The two bodies a rule on the bus delivers: EventBridge's envelope, or (`InputPath=$.detail`) the CloudEvent alone. */
export type AnnouncementShape = "envelope" | "cloudevent";

export type ReadAnnouncement =
  | {
      ok: true;
      /** Validated (zod's output: the fields the schema knows). */
      announcement: Announcement;
      /** The CloudEvent exactly as received: every attribute and data field, extensions included. */
      event: Record<string, unknown>;
      shape: AnnouncementShape;
    }
  | { ok: false; problem: string };

const SCHEMAS = {
  "reward.granted": rewardGrantedSchema,
  "reward.revoked": rewardRevokedSchema,
  "reward.achieved": rewardAchievedSchema,
} as const;
const TYPES = "reward.granted, reward.revoked or reward.achieved";
const isAnnouncementType = (type: unknown): type is keyof typeof SCHEMAS =>
  typeof type === "string" && Object.hasOwn(SCHEMAS, type);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Pure: the announcement a consumer's queue message carries, in either shape, or why it
 * carries none. An EventBridge envelope is told by its `detail-type` and `detail`; its
 * `detail-type` is the announcement's `type` (the bus entry's DetailType). The schema
 * validates; `event` is what to show, since zod's output drops what it does not know
 * (`traceparent`, extension attributes, data fields added later).
 */
export function readAnnouncement(body: string): ReadAnnouncement {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { ok: false, problem: "the body is not JSON" };
  }
  if (!isObject(parsed)) return { ok: false, problem: "the body is not a JSON object" };
  const enveloped = "detail-type" in parsed || "detail" in parsed;
  const shape: AnnouncementShape = enveloped ? "envelope" : "cloudevent";
  const event = enveloped ? parsed.detail : parsed;
  if (enveloped && !isAnnouncementType(parsed["detail-type"]))
    return {
      ok: false,
      problem: `an EventBridge event whose detail-type ${quoteInput(parsed["detail-type"] ?? null)} is not ${TYPES}`,
    };
  if (!isObject(event)) return { ok: false, problem: "an EventBridge event whose detail is not an object" };
  if (!isAnnouncementType(event.type))
    return {
      ok: false,
      problem: `not a ${TYPES}: type ${quoteInput(event.type ?? null)}`,
    };
  if (enveloped && parsed["detail-type"] !== event.type)
    return {
      ok: false,
      problem: `an EventBridge event of detail-type ${String(parsed["detail-type"])} whose detail is a ${event.type}`,
    };
  const result = SCHEMAS[event.type].safeParse(event);
  if (result.success) return { ok: true, announcement: result.data, event, shape };
  const issue = result.error.issues[0];
  return {
    ok: false,
    problem:
      `not a valid ${event.type}: ${issue?.path.join(".") || "(the event)"} ${issue?.message ?? ""}`.trimEnd(),
  };
}
