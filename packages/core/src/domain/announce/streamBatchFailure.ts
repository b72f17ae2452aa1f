import { z } from "zod";

/**
 * What Lambda sends to a stream event source's on-failure destination when a batch is given
 * up (retries exhausted, or its records too old): the batch's place in the stream, not its
 * records. The records stay in the stream for its retention (24 hours on DynamoDB), and
 * `rewards announcer failures replay` reads them back from there. The local stream source
 * writes the same shape.
 */
export const streamBatchFailureSchema = z.object({
  requestContext: z.object({
    requestId: z.string(),
    functionArn: z.string(),
    /** `RetryAttemptsExhausted` or `RecordAgeExceeded` (Lambda may add others: any text is kept). */
    condition: z.string(),
    approximateInvokeCount: z.number().int(),
  }),
  responseContext: z
    .object({
      statusCode: z.number().int().optional(),
      executedVersion: z.string().optional(),
      functionError: z.string().optional(),
    })
    .optional(),
  version: z.string(),
  timestamp: z.string(),
  DDBStreamBatchInfo: z.object({
    shardId: z.string().min(1),
    startSequenceNumber: z.string().regex(/^\d+$/),
    endSequenceNumber: z.string().regex(/^\d+$/),
    approximateArrivalOfFirstRecord: z.string().optional(),
    approximateArrivalOfLastRecord: z.string().optional(),
    batchSize: z.number().int(),
    streamArn: z.string().min(1),
  }),
});

export type StreamBatchFailure = z.infer<typeof streamBatchFailureSchema>;
