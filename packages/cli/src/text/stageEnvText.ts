import { LOCAL_CREDENTIALS, type StageEnvironment } from "@rewards/core/deploy";

/**
 * `rewards env`'s lines for a POSIX shell (`source`, `eval`): which stage and file they come
 * from (a comment), its exports, its unsets, and last the local stack's credentials unset only
 * when they are the ones the shell holds, so a shell's real keys are never dropped. The file
 * this writes (`rewards env > production.env`) decides at `source` time, in the shell it is
 * sourced in, never in the one that wrote it. Each line ends `source`'s status at 0.
 */
export function stageEnvText(env: StageEnvironment, outputsFile: string): string {
  const from = outputsFile.replaceAll("\n", " ");
  const stage =
    env.stage === undefined
      ? `# stage unknown: ${from} is from a deploy made before the stage was an output (deploy it again to have it)`
      : `# stage ${env.stage}, from ${from}`;
  const { accessKeyId, secretAccessKey } = LOCAL_CREDENTIALS;
  return `${[
    stage,
    ...Object.entries(env.exports).map(([name, value]) => `export ${name}=${value}`),
    ...env.unsets.map((name) => `unset ${name}`),
    `if [ "\${AWS_ACCESS_KEY_ID-}" = '${accessKeyId}' ] && [ "\${AWS_SECRET_ACCESS_KEY-}" = '${secretAccessKey}' ]; then unset AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY; fi`,
  ].join("\n")}\n`;
}
