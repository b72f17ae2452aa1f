import { plural } from "@rewards/core";

/** A stream function run locally (`rewards announcer`, `rewards history`): where its given-up batches go, and what reads them. */
export interface GivenUpDestination {
  /** The variable naming its failure queue, and whether it was set. */
  variable: string;
  set: boolean;
  /** The commands that list and replay the queue, and what to do once the stream no longer holds a batch. */
  failures: string;
  replay: string;
  pastTheStream: string;
}

/**
 * Pure: the line a stream function's run ends with when it gave batches up (it then exits 1),
 * or undefined when it gave none up. Lambda's `Errors` metric never sees a partial batch
 * response, so this line (and the failure queue's alarm) is how anyone hears of them.
 */
export function givenUpNotice(givenUp: number, destination: GivenUpDestination): string | undefined {
  if (givenUp === 0) return undefined;
  const batches = plural(givenUp, "batch", "batches");
  if (!destination.set)
    return `gave up ${batches} and discarded ${givenUp === 1 ? "it" : "them"}: ${destination.variable} is not set, so nothing says where in the stream ${givenUp === 1 ? "it is" : "they are"}; ${destination.pastTheStream}`;
  return `gave up ${batches}: ${givenUp === 1 ? "its place" : "their places"} in the stream ${givenUp === 1 ? "is" : "are"} in ${destination.variable}; \`${destination.failures}\` lists ${givenUp === 1 ? "it" : "them"}, \`${destination.replay}\` replays ${givenUp === 1 ? "it" : "them"} from the stream (within its 24 hours)`;
}
