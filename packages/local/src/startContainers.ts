import { LocalStackError } from "./localStackError";
import type { RunningService } from "./startSqs";

const LOCALSTACK_IMAGE = "localstack/localstack:4";
const EDGE_PORT = 4566;

/**
 * LocalStack in a container, for machines with a container runtime (REWARDS_LOCAL=containers).
 * testcontainers is an optional dependency and is loaded only here.
 */
export async function startContainers(): Promise<RunningService> {
  let testcontainers: typeof import("testcontainers");
  try {
    testcontainers = await import("testcontainers");
  } catch (error) {
    throw new LocalStackError(
      "containers_failed",
      `REWARDS_LOCAL=containers needs the optional package testcontainers: ${(error as Error).message}`,
      { cause: error },
    );
  }
  try {
    const container = await new testcontainers.GenericContainer(LOCALSTACK_IMAGE)
      .withEnvironment({ SERVICES: "sqs,dynamodb" })
      .withExposedPorts(EDGE_PORT)
      .withWaitStrategy(testcontainers.Wait.forLogMessage("Ready."))
      .start();
    return {
      endpoint: `http://${container.getHost()}:${container.getMappedPort(EDGE_PORT)}`,
      stop: async () => {
        await container.stop();
      },
    };
  } catch (error) {
    const message = (error as Error).message;
    if (/container runtime strategy/i.test(message)) {
      throw new LocalStackError(
        "container_runtime_missing",
        "REWARDS_LOCAL=containers needs a running Docker (or compatible) engine and none was found; unset REWARDS_LOCAL to use the embedded stack",
        { cause: error },
      );
    }
    throw new LocalStackError("containers_failed", `LocalStack container failed to start: ${message}`, {
      cause: error,
    });
  }
}
