/**
 * The event inside whatever carried it to the queue. Services often publish
 * through an SNS topic (raw message delivery off) or an EventBridge rule (input not
 * transformed); the same happening must pay once whichever way it arrived, so the worker
 * unwraps both into the CloudEvent it would have received directly. Pure.
 */
export type Layer = "sns" | "eventbridge";

export type Unwrapped =
  | { ok: true; event: unknown; layers: Layer[] }
  | { ok: false; code: "invalid_json" | "invalid_event"; layers: Layer[]; reason: string };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** An SNS notification as SQS receives it with raw message delivery off. */
function isSnsNotification(value: Record<string, unknown>): boolean {
  return value.Type === "Notification" && "Message" in value;
}

/** An EventBridge event as a rule target receives it untransformed. */
function isEventBridgeEvent(value: Record<string, unknown>): boolean {
  return "detail-type" in value && "detail" in value;
}

/** The CloudEvent an EventBridge event stands for: `detail-type` is the type, `detail` the data. */
function fromEventBridge(value: Record<string, unknown>): unknown {
  return {
    specversion: "1.0",
    id: value.id,
    source: value.source,
    type: value["detail-type"],
    time: value.time,
    data: value.detail,
  };
}

export function unwrapEnvelope(json: unknown): Unwrapped {
  const layers: Layer[] = [];
  let current = json;
  if (isObject(current) && isSnsNotification(current)) {
    layers.push("sns");
    if (typeof current.Message !== "string") {
      return { ok: false, code: "invalid_event", layers, reason: "Message: must be a string" };
    }
    try {
      current = JSON.parse(current.Message);
    } catch (error) {
      return {
        ok: false,
        code: "invalid_json",
        layers,
        reason: `Message is not JSON: ${(error as Error).message}`,
      };
    }
  }
  if (isObject(current) && isEventBridgeEvent(current)) {
    layers.push("eventbridge");
    if (!isObject(current.detail)) {
      return { ok: false, code: "invalid_event", layers, reason: "detail: must be an object" };
    }
    current = fromEventBridge(current);
  }
  return { ok: true, event: current, layers };
}

const LAYER_NAMES: Record<Layer, string> = { sns: "SNS notification", eventbridge: "EventBridge event" };

/** `in the SNS notification's EventBridge event: ` — which layer a problem was found in. */
export function layerPrefix(layers: readonly Layer[]): string {
  if (layers.length === 0) return "";
  return `in the ${layers.map((layer) => LAYER_NAMES[layer]).join(" → ")}: `;
}
