import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Runs the SST app (sst.config.ts + infra/) offline as a Pulumi program under
 * `pulumi.runtime.setMocks`, the way `sst deploy` would run it, and returns every resource
 * it registers with its inputs. What `sst deploy` provides and this stands in for:
 * - the globals SST's build defines ($app, $cli, $dev) and injects (sst, aws, $interpolate, …);
 * - SST's local RPC server (SST_SERVER): `Runtime.Build` answers with a stand-in bundle,
 *   `Provider.Aws.Bootstrap` with a stand-in asset bucket;
 * - the AWS data sources (region, partition, caller identity) and `iam.getPolicyDocument`,
 *   which echoes its statements so the role's policy can be asserted.
 * Nothing reaches AWS: the Pulumi engine itself is mocked.
 */

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PLATFORM = join(ROOT, ".sst/platform");

export interface RegisteredResource {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
}

export interface ProgramRun {
  resources: RegisteredResource[];
  /** The program's outputs, resolved. */
  outputs: Record<string, unknown>;
  /** What sst.config.ts's app() said for this stage. */
  app: Record<string, unknown>;
  /** The calls SST made to its RPC server (e.g. what it asked to build). */
  rpcCalls: Array<{ method: string; args: Record<string, unknown> }>;
}

async function startRpcStandIn(
  bundle: string,
  calls: Array<{ method: string; args: Record<string, unknown> }>,
): Promise<Server> {
  const answers: Record<string, (args: Record<string, unknown>) => unknown> = {
    "Runtime.Build": () => ({ handler: "handler.handler", out: bundle, errors: [], sourcemaps: [] }),
    "Provider.Aws.Bootstrap": () => ({
      asset: "sst-asset-stand-in",
      assetEcrRegistryId: "123456789012",
      assetEcrUrl: "123456789012.dkr.ecr.us-east-1.amazonaws.com/sst-asset",
      state: "sst-state-stand-in",
      appsyncHttp: "stand-in.appsync-api.us-east-1.amazonaws.com",
      appsyncRealtime: "stand-in.appsync-realtime-api.us-east-1.amazonaws.com",
    }),
    "Runtime.AddTarget": () => ({}),
  };
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      const { method, params } = JSON.parse(body) as {
        method: string;
        params: Array<Record<string, unknown>>;
      };
      calls.push({ method, args: params[0] ?? {} });
      const answer = answers[method];
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify(
          answer
            ? { result: answer(params[0] ?? {}), error: null }
            : { result: null, error: `rpc: can't find method ${method}` },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

interface PolicyCondition {
  test: string;
  variable: string;
  values: string[];
}

/**
 * A statement's `conditions` as a policy's `Condition` (`{test: {variable: values}}`), or nothing
 * without any: dropped, a grant narrowed by a condition (the rules' leading key) would be
 * asserted as the wider grant it is without.
 */
function conditionOf(conditions: PolicyCondition[] | undefined) {
  if (conditions === undefined || conditions.length === 0) return {};
  const condition: Record<string, Record<string, string[]>> = {};
  for (const { test, variable, values } of conditions)
    condition[test] = { ...condition[test], [variable]: values };
  return { Condition: condition };
}

/** `aws:iam/getPolicyDocument` as AWS would render it: the statements, echoed as JSON. */
function policyDocument(statements: Array<Record<string, unknown>> = []) {
  return {
    Version: "2012-10-17",
    Statement: statements.map((s) => ({
      Effect: s.effect ?? "Allow",
      Action: s.actions,
      Resource: s.resources,
      ...conditionOf(s.conditions as PolicyCondition[] | undefined),
    })),
  };
}

export async function runSstProgram(stage: string, env: Record<string, string> = {}): Promise<ProgramRun> {
  const work = await mkdtemp(join(tmpdir(), "rewards-infra-"));
  const bundle = join(work, "bundle");
  await mkdir(bundle, { recursive: true });
  await writeFile(
    join(bundle, "handler.mjs"),
    "export const handler = async () => ({ batchItemFailures: [] });\n",
  );
  // Production deploys only from its settings file; a test that names none gets an empty one.
  const programEnv = { ...env };
  if (stage === "production" && env.REWARDS_STAGE_SETTINGS === undefined) {
    programEnv.REWARDS_STAGE_SETTINGS = join(work, "production.json");
    await writeFile(programEnv.REWARDS_STAGE_SETTINGS, "{}\n");
  }
  const rpcCalls: ProgramRun["rpcCalls"] = [];
  const server = await startRpcStandIn(bundle, rpcCalls);
  const saved = { ...process.env };
  Object.assign(process.env, programEnv, {
    SST_SERVER: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    PULUMI_NODEJS_STACK: stage,
  });
  const cwd = process.cwd();
  try {
    // Platform modules resolve @pulumi/* from .sst/platform/node_modules: the same instances here.
    const pulumi = await import(join(PLATFORM, "node_modules/@pulumi/pulumi/index.js"));
    const resources: RegisteredResource[] = [];
    pulumi.runtime.setMocks(
      {
        newResource: (args: { type: string; name: string; inputs: Record<string, unknown> }) => {
          resources.push({ type: args.type, name: args.name, inputs: args.inputs });
          const arnLike = `arn:aws:mock:us-east-1:123456789012:${args.type.split(":").pop()}/${args.name}`;
          return {
            id: `${args.name}-id`,
            state: {
              ...args.inputs,
              arn: args.inputs.arn ?? arnLike,
              name: args.inputs.name ?? args.name,
              url: args.inputs.url ?? `https://sqs.us-east-1.amazonaws.com/123456789012/${args.name}`,
              // What AWS answers for a function URL: its endpoint.
              ...(args.type === "aws:lambda/functionUrl:FunctionUrl"
                ? { functionUrl: `https://${args.name.toLowerCase()}.lambda-url.us-east-1.on.aws/` }
                : {}),
              // What AWS answers for a table with a stream: its latest stream's ARN.
              ...(args.type === "aws:dynamodb/table:Table" && args.inputs.streamEnabled
                ? { streamArn: `${arnLike}/stream/2026-12-01T00:00:00.000` }
                : {}),
            },
          };
        },
        call: (args: { token: string; inputs: Record<string, unknown> }) => {
          switch (args.token) {
            case "aws:index/getRegion:getRegion":
              return { name: "us-east-1", region: "us-east-1", id: "us-east-1" };
            case "aws:index/getPartition:getPartition":
              return { partition: "aws", dnsSuffix: "amazonaws.com", id: "aws" };
            case "aws:index/getCallerIdentity:getCallerIdentity":
              return {
                accountId: "123456789012",
                arn: "arn:aws:iam::123456789012:user/ci",
                userId: "ci",
                id: "123456789012",
              };
            case "aws:iam/getPolicyDocument:getPolicyDocument": {
              const document = policyDocument(args.inputs.statements as Array<Record<string, unknown>>);
              // Echo the inputs too: SST adds the inline policy only when `statements` come back.
              return {
                ...args.inputs,
                json: JSON.stringify(document),
                minifiedJson: JSON.stringify(document),
                id: "policy",
              };
            }
            default:
              return {};
          }
        },
      },
      "rewards",
      stage,
      false,
    );

    const shim = await import(join(PLATFORM, "src/shim/run.js"));
    const g = globalThis as Record<string, unknown>;
    Object.assign(g, {
      $dev: false,
      $cli: {
        command: "deploy",
        paths: { home: work, root: ROOT, work, platform: PLATFORM },
        state: { version: {} },
      },
      $config: shim.$config,
      $transform: shim.$transform,
      $asset: shim.$asset,
      $secrets: {},
      $util: pulumi,
      $output: pulumi.output,
      $interpolate: pulumi.interpolate,
      $resolve: pulumi.all,
      $concat: pulumi.concat,
      $jsonParse: pulumi.jsonParse,
      $jsonStringify: pulumi.jsonStringify,
      $linkable: shim.$linkable,
      // Read by some components as they load; completed from sst.config.ts's app() below.
      $app: { name: "rewards", stage, providers: { aws: {} } },
    });
    g.sst = await import(join(PLATFORM, "src/components/index.ts"));
    g.aws = await import(join(PLATFORM, "node_modules/@pulumi/aws/index.js"));
    const config = (await import(join(ROOT, "sst.config.ts"))).default as {
      app(input: { stage: string }): Record<string, unknown>;
      run(): Promise<Record<string, unknown>>;
    };
    const app = config.app({ stage });
    g.$app = { ...app, stage, providers: { aws: {} } };
    const { run } = await import(join(PLATFORM, "src/auto/run.ts"));
    let raw: Record<string, unknown> = {};
    await pulumi.runtime.runInPulumiStack(async () => {
      raw = await run(config.run);
      return raw;
    });
    // Some resources register only after an apply() resolves (the function waits for its
    // build over RPC; a policy for its data sources): first wait until Pulumi has no RPC in
    // flight (what `pulumi up` waits for before it ends), then until registrations have
    // stopped coming, not a fixed time.
    const settings = await import(join(PLATFORM, "node_modules/@pulumi/pulumi/runtime/settings.js"));
    await settings.waitForRPCs();
    let seen = -1;
    for (let quiet = 0; quiet < 5; ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      quiet = resources.length === seen ? quiet + 1 : 0;
      seen = resources.length;
    }
    const outputs = Object.fromEntries(
      await Promise.all(
        Object.entries(raw).map(
          async ([key, value]) =>
            [key, await new Promise((resolve) => pulumi.output(value).apply(resolve))] as const,
        ),
      ),
    );
    return { resources, outputs, app, rpcCalls };
  } finally {
    process.chdir(cwd);
    process.env = saved;
    server.close();
  }
}
