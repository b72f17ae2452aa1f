import { type ChildProcess, fork } from "node:child_process";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { contextFields } from "../eventSource/lambdaContext";
import { packageRoot } from "../packageRoot";

const BOOTSTRAP = join(packageRoot("@rewards/local"), "src", "functionRuntime", "bootstrap.mjs");
/** Lambda's limit on the init phase, which does not count against the function timeout. */
const INIT_TIMEOUT_MS = 10_000;

/**
 * How an invocation failed, named as Lambda names it: `Runtime.InitError` (the module threw
 * while loading), `Sandbox.Timedout` (killed at the function timeout), `Runtime.ExitError`
 * (the process died), or the handler's own error type.
 */
export class FunctionError extends Error {
  override readonly name = "FunctionError";
  constructor(
    readonly errorType: string,
    message: string,
  ) {
    super(`${errorType}: ${message}`);
  }
}

export interface FunctionRuntimeOptions {
  /** The module to load: a bundle (`.mjs`, run by bare node) or a `.ts` source (run through tsx). */
  entry: string;
  exportName?: string;
  /**
   * The function's whole environment: what its deployment sets plus what the Lambda runtime
   * sets (see lambdaEnvironment). Nothing of this process's environment leaks in.
   */
  environment: Record<string, string>;
  functionName: string;
  memoryMb: number;
  /** Each invocation is killed this long after it starts, as Lambda kills a timed-out one. */
  timeoutMs: number;
  /** Each line the function writes to stdout (its logs, its EMF metrics); default: this stdout. */
  onStdout?: (line: string) => void;
  /** Each line it writes to stderr; default: this stderr. */
  onStderr?: (line: string) => void;
}

export interface FunctionRuntime {
  /**
   * One invocation in an execution environment of its own: a warm one if any is idle. Its
   * deadline is the function's timeout, counted from the invocation as on Lambda: never the
   * caller's (an event source's clock started earlier, at its poll).
   */
  invoke(event: unknown): Promise<unknown>;
  /**
   * Starts one execution environment ahead of any invocation, as a deployment's first
   * init would: an init failure (a bad variable, a module that does not load) is thrown
   * here, once, as `Runtime.InitError`.
   */
  warm(): Promise<void>;
  /** Execution environments started so far (cold starts), and their init times. */
  stats(): { coldStarts: number; initMs: number[] };
  /** Ends every environment; call after the last invocation has finished. */
  stop(): Promise<void>;
}

interface Environment {
  child: ChildProcess;
  exited: Promise<void>;
}

type Reply =
  | { kind: "ready"; initMs: number }
  | { kind: "initError"; errorType: string; errorMessage: string }
  | { kind: "result"; id: string; result: unknown }
  | { kind: "error"; id: string; errorType: string; errorMessage: string };

const lines = (stream: NodeJS.ReadableStream | null, each: (line: string) => void) => {
  if (stream) createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY }).on("line", each);
};

/**
 * The function as Lambda runs it, on this machine: each execution environment is a process
 * of its own that loads the module once (init) and is reused while warm, one invocation at
 * a time; concurrent invocations get environments of their own. A timed-out invocation's
 * process is killed (its batch is redelivered after the visibility timeout, as on AWS), and
 * an init failure is reported as `Runtime.InitError`.
 */
export function createFunctionRuntime(options: FunctionRuntimeOptions): FunctionRuntime {
  const idle: Environment[] = [];
  const all = new Set<Environment>();
  const initTimes: number[] = [];
  let coldStarts = 0;
  const onStdout = options.onStdout ?? ((line: string) => process.stdout.write(`${line}\n`));
  const onStderr = options.onStderr ?? ((line: string) => process.stderr.write(`${line}\n`));

  function nextReply(environment: Environment, accept: (reply: Reply) => boolean): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const onMessage = (reply: Reply) => {
        if (!accept(reply)) return;
        cleanup();
        resolve(reply);
      };
      const onExit = (code: number | null, signal: string | null) => {
        cleanup();
        reject(
          new FunctionError(
            "Runtime.ExitError",
            `the function's process exited (${signal ?? `code ${code}`})`,
          ),
        );
      };
      const cleanup = () => {
        environment.child.off("message", onMessage);
        environment.child.off("exit", onExit);
      };
      environment.child.on("message", onMessage);
      environment.child.once("exit", onExit);
    });
  }

  /** A new execution environment; `ready` settles when its init phase has. */
  function start(): { environment: Environment; ready: Promise<void> } {
    coldStarts++;
    const child = fork(BOOTSTRAP, [options.entry, options.exportName ?? "handler"], {
      env: options.environment,
      execArgv: [],
      stdio: ["ignore", "pipe", "pipe", "ipc"],
    });
    lines(child.stdout, onStdout);
    lines(child.stderr, onStderr);
    const environment: Environment = {
      child,
      exited: new Promise((resolve) => child.once("exit", () => resolve())),
    };
    all.add(environment);
    void environment.exited.then(() => {
      all.delete(environment);
      const at = idle.indexOf(environment);
      if (at >= 0) idle.splice(at, 1);
    });
    const ready = nextReply(environment, (r) => r.kind === "ready" || r.kind === "initError").then(
      (reply) => {
        if (reply.kind === "initError") {
          throw new FunctionError("Runtime.InitError", `${reply.errorType}: ${reply.errorMessage}`);
        }
        if (reply.kind === "ready") initTimes.push(reply.initMs);
      },
    );
    return { environment, ready };
  }

  async function run(environment: Environment, event: unknown, remainingMs: number): Promise<unknown> {
    const id = randomUUID();
    const reply = nextReply(environment, (r) => "id" in r && r.id === id);
    environment.child.send({
      kind: "invoke",
      id,
      event,
      remainingMs,
      context: contextFields(options.functionName, options.memoryMb),
    });
    const answer = await reply;
    if (answer.kind === "error") throw new FunctionError(answer.errorType, answer.errorMessage);
    return answer.kind === "result" ? answer.result : undefined;
  }

  /** `work`, or the error `onTimeout` makes after `ms` (the process is killed then). */
  async function within<T>(environment: Environment, work: Promise<T>, ms: number, onTimeout: () => Error) {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        environment.child.kill("SIGKILL");
        reject(onTimeout());
      }, ms);
    });
    work.catch(() => {}); // after a timeout its rejection (the killed process) says nothing new
    try {
      return await Promise.race([work, timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The init phase, within Lambda's init budget. */
  function initialised(environment: Environment, ready: Promise<void>): Promise<void> {
    return within(
      environment,
      ready,
      INIT_TIMEOUT_MS,
      () => new FunctionError("Runtime.InitError", `init did not finish within ${INIT_TIMEOUT_MS / 1000} s`),
    );
  }

  async function invoke(event: unknown) {
    const warm = idle.pop();
    const { environment, ready } = warm ? { environment: warm, ready: Promise.resolve() } : start();
    try {
      // As on Lambda, init has its own budget and the function timeout starts with the invocation.
      await initialised(environment, ready);
      const result = await within(
        environment,
        run(environment, event, options.timeoutMs),
        options.timeoutMs,
        () =>
          new FunctionError(
            "Sandbox.Timedout",
            `Task timed out after ${(options.timeoutMs / 1000).toFixed(2)} seconds`,
          ),
      );
      idle.push(environment);
      return result;
    } catch (error) {
      // The handler's own error leaves its environment warm; a failed init, a timeout or a
      // crash does not (Lambda resets the environment).
      const handlerError = error instanceof FunctionError && !/^(Runtime|Sandbox)\./.test(error.errorType);
      if (handlerError) idle.push(environment);
      else if (environment.child.exitCode === null && environment.child.signalCode === null) {
        environment.child.kill("SIGKILL");
      }
      throw error;
    }
  }

  return {
    invoke,
    warm: async () => {
      const { environment, ready } = start();
      try {
        await initialised(environment, ready);
      } catch (error) {
        environment.child.kill("SIGKILL");
        throw error;
      }
      idle.push(environment);
    },
    stats: () => ({ coldStarts, initMs: [...initTimes] }),
    stop: async () => {
      const running = [...all];
      for (const { child } of running) if (child.connected) child.disconnect();
      const stuck = setTimeout(() => {
        for (const { child } of running) child.kill("SIGKILL");
      }, 5000);
      await Promise.all(running.map((environment) => environment.exited));
      clearTimeout(stuck);
    },
  };
}
