import type { ProgramRun, RegisteredResource } from "./runSstProgram";

export function one(run: ProgramRun, type: string, name?: RegisteredResource["name"]): RegisteredResource {
  const found = run.resources.filter((r) => r.type === type && (name === undefined || r.name === name));
  if (found.length !== 1) throw new Error(`expected one ${type} ${name ?? ""}, found ${found.length}`);
  return found[0] as RegisteredResource;
}

export const all = (run: ProgramRun, type: string) => run.resources.filter((r) => r.type === type);

export interface Statement {
  Effect: string;
  Action: string[];
  Resource: string[];
}

/** The worker role's inline policy statements. */
export function workerStatements(run: ProgramRun): Statement[] {
  const role = one(run, "aws:iam/role:Role");
  const policies = role.inputs.inlinePolicies as Array<{ policy: string }>;
  return policies.flatMap((p) => (JSON.parse(p.policy) as { Statement: Statement[] }).Statement);
}
