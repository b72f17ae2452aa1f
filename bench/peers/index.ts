import { checkThenWrite } from "./checkThenWrite";
import { powertools } from "./powertools";
import { rewardsWorker } from "./rewardsWorker";

export type { Peer, PeerSetup } from "./peer";
/** This worker first: ratios are relative to it. */
export const peers = [rewardsWorker, powertools, checkThenWrite];
