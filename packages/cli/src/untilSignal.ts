/**
 * Resolves on the first SIGINT or SIGTERM. A second signal while shutting down exits at
 * once with code 130: the operator asked twice.
 */
export function untilSignal(onFirst?: (signal: NodeJS.Signals) => void): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    let received = false;
    const handle = (signal: NodeJS.Signals) => {
      if (received) process.exit(130);
      received = true;
      onFirst?.(signal);
      resolve(signal);
    };
    process.on("SIGINT", handle);
    process.on("SIGTERM", handle);
  });
}
