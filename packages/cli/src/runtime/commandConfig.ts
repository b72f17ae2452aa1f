import { type ToolConfig, toolConfigFrom } from "@rewards/core/deploy";
import { useVariables } from "./variablesInUse";

export type ToolVariable = keyof ToolConfig;

/**
 * A command's configuration from this process's environment, requiring `required` (a
 * missing or bad one is a ConfigError naming it), and remembered so a failure names the
 * variable a value came from (describeFailure).
 */
export function commandConfig<K extends ToolVariable>(...required: K[]): ToolConfig<K> {
  useVariables(required);
  return toolConfigFrom(process.env, ...required);
}
