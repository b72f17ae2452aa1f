import type { DeploySettings } from "./deploySettings";

/**
 * Who may call the read API's function URL (IAM auth): for each principal of the stage's
 * REWARDS_READER_PRINCIPALS, the two statements AWS requires of a function URL created since
 * October 2025 — `lambda:InvokeFunctionUrl` limited to `FunctionUrlAuthType` AWS_IAM, and
 * `lambda:InvokeFunction` limited to calls through the URL (`lambda:InvokedViaFunctionUrl`,
 * so a site cannot invoke the function directly) — on this function only. Never `*`. An
 * account id grants that account's principals whose own IAM policies allow it; a role ARN
 * that role alone. Without the setting there is no
 * resource policy at all: only this account's principals, by their IAM policies, can call it.
 */
export function readerAccess(
  fn: { name: $util.Input<string> },
  settings: Pick<DeploySettings, "readerPrincipals">,
): aws.lambda.Permission[] {
  return settings.readerPrincipals.flatMap((principal, index) => [
    new aws.lambda.Permission(`ReadApiUrlInvoke${index}`, {
      function: fn.name,
      action: "lambda:InvokeFunctionUrl",
      principal,
      functionUrlAuthType: "AWS_IAM",
    }),
    new aws.lambda.Permission(`ReadApiInvoke${index}`, {
      function: fn.name,
      action: "lambda:InvokeFunction",
      principal,
      invokedViaFunctionUrl: true,
    }),
  ]);
}
