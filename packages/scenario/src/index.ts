/**
 * `@rewards/scenario`: what the demo, the soak run, the benchmarks and the tests share — a
 * scenario's traffic, the exactly-once checks (each paging the table, so it scales with the
 * run) and the demo as named phases.
 */
export { type BoardCheck, checkBoard } from "./checks/checkBoard";
export { checkGrants, type GrantCheck } from "./checks/checkGrants";
export { checkHistory, type HistoryCheck } from "./checks/checkHistory";
export { checkProgress, type ProgressCheck } from "./checks/checkProgress";
export { checkReadApi, type ReadApiCheck } from "./checks/checkReadApi";
export { type Expectation, readExpectation, writeExpectation } from "./checks/expectations";
export { type DemoOptions, type DemoReport, runDemo } from "./demo";
export { DemoPhaseError, runPhase } from "./demoPhase";
export { generateTraffic, type TrafficMessage, type TrafficOptions } from "./traffic/generateTraffic";
export { type SendReport, sendTraffic } from "./traffic/sendTraffic";
export { waitUntilAnnounced } from "./waitUntilAnnounced";
