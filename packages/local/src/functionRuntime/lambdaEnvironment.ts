export interface LambdaEnvironmentOptions {
  functionName: string;
  memoryMb: number;
  region: string;
  /** The handler setting, e.g. `handler.handler`. */
  handler: string;
  credentials?:
    | { accessKeyId: string; secretAccessKey: string; sessionToken?: string | undefined }
    | undefined;
}

/**
 * The variables Lambda's runtime sets in a function's environment, besides those its
 * deployment sets: a function run locally sees these and nothing of the shell it was
 * started from. (Lambda also sets the AWS credentials of the function's role; locally they
 * are the local stack's.)
 */
export function lambdaEnvironment(options: LambdaEnvironmentOptions): Record<string, string> {
  const { functionName, credentials } = options;
  return {
    AWS_LAMBDA_FUNCTION_NAME: functionName,
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(options.memoryMb),
    AWS_LAMBDA_FUNCTION_VERSION: "$LATEST",
    AWS_LAMBDA_INITIALIZATION_TYPE: "on-demand",
    AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${functionName}`,
    AWS_LAMBDA_LOG_STREAM_NAME: "local",
    AWS_EXECUTION_ENV: "AWS_Lambda_nodejs22.x",
    AWS_REGION: options.region,
    AWS_DEFAULT_REGION: options.region,
    _HANDLER: options.handler,
    LANG: "en_US.UTF-8",
    TZ: ":UTC",
    PATH: "/usr/local/bin:/usr/bin/:/bin",
    ...(credentials
      ? {
          AWS_ACCESS_KEY_ID: credentials.accessKeyId,
          AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
          ...(credentials.sessionToken ? { AWS_SESSION_TOKEN: credentials.sessionToken } : {}),
        }
      : {}),
  };
}
