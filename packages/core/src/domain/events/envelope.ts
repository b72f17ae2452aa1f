import { z } from "zod";
import { isRfc3339DateTime, RFC3339_PATTERN } from "./rfc3339";
import { text } from "./text";

/**
 * The CloudEvents 1.0 envelope (structured JSON mode). Unknown top-level fields are
 * stripped, not rejected: producers may add extensions. Every text field must be
 * well-formed Unicode.
 */
export const envelopeSchema = z.object({
  specversion: z.literal("1.0"),
  id: text(1, 128).describe(
    "the emission's id: logged and stored on the guard, never used for deduplication",
  ),
  source: text(1, 256).describe("the producer, e.g. /reader/web"),
  type: text(1, 256),
  time: z
    .string()
    // Not a date-time at all: say that alone (not also "not a real calendar date").
    .regex(new RegExp(RFC3339_PATTERN), {
      error: "must be an RFC 3339 date-time, e.g. 2026-11-29T10:00:00Z",
      abort: true,
    })
    .refine(isRfc3339DateTime, "must be a real calendar date and time")
    .optional()
    .describe("when it happened (RFC 3339); optional"),
  datacontenttype: z.string().optional(),
  data: z.record(z.string(), z.unknown()),
});

export type Envelope = z.infer<typeof envelopeSchema>;

/** 1–256 characters of any Unicode, counted as code points; never normalised (ids are opaque). */
export const userIdSchema = text(1, 256).describe("the user's id, opaque: never normalised");
