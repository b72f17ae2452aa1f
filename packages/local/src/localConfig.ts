import { type Environment, readConfig, urlVariable } from "@rewards/core/deploy";
import { z } from "zod";

/** The local stack's variables (the README's Configuration table, "local stack"). */
const localConfigSchema = z.object({
  /** `containers`: LocalStack through testcontainers (needs Docker); unset: the embedded stack. */
  REWARDS_LOCAL: z.enum(["embedded", "containers"], { error: "must be embedded or containers" }).optional(),
  /** The Python that has moto[server] 5.2.x. */
  REWARDS_PYTHON: z.string().min(1).optional(),
  AWS_REGION: z.string().min(1).default("us-east-1"),
  /** Already set: that endpoint is used as it is, and only provisioned. */
  AWS_ENDPOINT_URL_SQS: urlVariable().optional(),
  AWS_ENDPOINT_URL_DYNAMODB: urlVariable().optional(),
});

export type LocalConfig = z.output<typeof localConfigSchema>;

/** Throws ConfigError naming every bad variable. */
export function readLocalConfig(env: Environment): LocalConfig {
  return readConfig(localConfigSchema, env);
}
