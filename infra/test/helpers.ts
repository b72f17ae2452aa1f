import { expect } from "vitest";
import type { ProgramRun, RegisteredResource } from "./runSstProgram";

export function one(run: ProgramRun, type: string, name?: RegisteredResource["name"]): RegisteredResource {
  const found = run.resources.filter((r) => r.type === type && (name === undefined || r.name === name));
  if (found.length !== 1) throw new Error(`expected one ${type} ${name ?? ""}, found ${found.length}`);
  return found[0] as RegisteredResource;
}

export const all = (run: ProgramRun, type: string) => run.resources.filter((r) => r.type === type);

/** The one resource of `type` whose name begins with `prefix` (SST suffixes subscribers' names). */
export function named(run: ProgramRun, type: string, prefix: string): RegisteredResource {
  const found = all(run, type).filter((r) => r.name.startsWith(prefix));
  if (found.length !== 1) throw new Error(`expected one ${type} named ${prefix}…, found ${found.length}`);
  return found[0] as RegisteredResource;
}

/** The worker's, the announcer's and the history writer's resources, by the names SST gives them. */
export const WORKER = "EventsSubscriber";
export const ANNOUNCER = "RewardsSubscriberAnnouncer";
export const HISTORY = "RewardsSubscriberHistory";

export interface Statement {
  Effect: string;
  Action: string[];
  Resource: string[];
  /** `{operator: {key: values}}`, when the grant has one. */
  Condition?: Record<string, Record<string, string[]>>;
}

/** A function role's inline policy statements (WORKER, ANNOUNCER or HISTORY). */
export function roleStatements(run: ProgramRun, prefix: string): Statement[] {
  const role = named(run, "aws:iam/role:Role", prefix);
  const policies = role.inputs.inlinePolicies as Array<{ policy: string }>;
  return policies.flatMap((p) => (JSON.parse(p.policy) as { Statement: Statement[] }).Statement);
}

/** No wildcard in any action or resource, and no managed policy but Lambda's basic execution (logs). */
export function expectNothingElse(run: ProgramRun, prefix: string): void {
  for (const statement of roleStatements(run, prefix)) {
    expect([...statement.Action, ...statement.Resource].filter((v) => v.includes("*"))).toEqual([]);
  }
  expect(named(run, "aws:iam/role:Role", prefix).inputs.managedPolicyArns).toEqual([
    "arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole",
  ]);
}
