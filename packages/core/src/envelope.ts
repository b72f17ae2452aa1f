import { z } from "zod";

/**
 * The CloudEvents 1.0 envelope (structured JSON mode), SPEC §2.
 * Unknown top-level fields are stripped, not rejected: producers may add extensions.
 */
export const envelopeSchema = z.object({
  specversion: z.literal("1.0"),
  id: z.string().min(1).max(128),
  source: z.string().min(1).max(256),
  type: z.string().min(1).max(256),
  time: z.iso.datetime({ offset: true }),
  datacontenttype: z.string().optional(),
  data: z.record(z.string(), z.unknown()),
});

export type Envelope = z.infer<typeof envelopeSchema>;

/** 1–256 characters of any Unicode, counted as code points (what a person calls characters). */
export const userIdSchema = z.string().refine((value) => {
  const length = [...value].length;
  return length >= 1 && length <= 256;
}, "userId must be 1 to 256 characters");
