import { z } from "zod";
import { userIdSchema } from "../events/envelope";

/** The CloudEvents attributes every announcement on the rewards bus carries, beside its id, type and time. */
export const envelopeFields = {
  specversion: z.literal("1.0"),
  source: z.literal("/rewards"),
  subject: userIdSchema.describe("the user paid"),
  datacontenttype: z.literal("application/json"),
};
