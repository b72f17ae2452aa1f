import { randomUUID } from "node:crypto";
import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import type { Award } from "./award";
import { classifyError, describeError, type ErrorClass } from "./classifyError";
import { planGuardTransaction } from "./guardTransaction";
import {
  DEFAULT_RETRY_POLICY,
  RetriesExhaustedError,
  type RetryHooks,
  type RetryPolicy,
  retry,
} from "./retry";

export type AwardOutcome = "awarded" | "duplicate";

export interface AwardDeps {
  /** A document client, or a plain DynamoDB client that is wrapped in one. */
  client: DynamoDBDocumentClient | DynamoDBClient;
  tableName: string;
  now?: () => Date;
  retryPolicy?: RetryPolicy;
  retryHooks?: RetryHooks;
}

export interface AwardRequest extends Award {
  /** The SQS message id, stored on the guard. */
  messageId?: string | undefined;
}

/** The award could not be written; `kind` says whether trying again later can help. */
export class AwardError extends Error {
  override readonly name = "AwardError";
  constructor(
    readonly kind: Exclude<ErrorClass, "duplicate">,
    readonly attempts: number,
    override readonly cause: unknown,
  ) {
    super(`${kind} after ${attempts} attempt(s): ${describeError(cause)}`);
  }
}

const documentClients = new WeakMap<DynamoDBClient, DynamoDBDocumentClient>();

function documentClient(client: DynamoDBDocumentClient | DynamoDBClient): DynamoDBDocumentClient {
  if (client instanceof DynamoDBDocumentClient) return client;
  let wrapped = documentClients.get(client);
  if (!wrapped) {
    wrapped = DynamoDBDocumentClient.from(client);
    documentClients.set(client, wrapped);
  }
  return wrapped;
}

/**
 * Pays `award` at most once: the guard put and the profile update in one transaction.
 *
 * One random ClientRequestToken and one `now` serve every in-process retry, so the
 * retried request is byte-identical: if an earlier attempt committed but its answer was
 * lost, AWS answers the retry with success (awarded), not with the guard's own
 * ConditionalCheckFailed (which would misreport it as a duplicate).
 */
export async function awardOnce(deps: AwardDeps, award: AwardRequest): Promise<AwardOutcome> {
  const input = {
    ...planGuardTransaction(award, {
      tableName: deps.tableName,
      now: (deps.now ?? (() => new Date()))(),
      messageId: award.messageId,
    }),
    ClientRequestToken: randomUUID(),
  };
  const client = documentClient(deps.client);
  let attempts = 0;
  try {
    await retry(
      async (attempt) => {
        attempts = attempt;
        // The deadline also bounds the call in flight, so a black-holed endpoint cannot
        // hold the batch past it (the SDK's own timeouts alone could, retries included).
        const deadline = deps.retryHooks?.deadline;
        const abortSignal =
          deadline !== undefined && Number.isFinite(deadline)
            ? AbortSignal.timeout(Math.max(1, deadline - Date.now()))
            : undefined;
        await client.send(new TransactWriteCommand(input), { abortSignal });
      },
      (error) => classifyError(error) === "retryable",
      deps.retryPolicy ?? DEFAULT_RETRY_POLICY,
      deps.retryHooks,
    );
    return "awarded";
  } catch (error) {
    const cause = error instanceof RetriesExhaustedError ? error.cause : error;
    const kind = classifyError(cause);
    if (kind === "duplicate") return "duplicate";
    throw new AwardError(kind, attempts, cause);
  }
}
