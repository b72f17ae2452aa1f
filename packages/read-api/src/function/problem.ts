import type { ReadParameter } from "@rewards/reader";

/**
 * The read API's problems (RFC 9457): each a stable `type` URI a client can switch on, its
 * status and title. The `detail` says what was wrong with this request; a 400 also names the
 * bad parameter (`parameter`: the reader's InvalidReadInput parameters, `userId`, `limit`,
 * `cursor`). 5xx details say nothing of the cause (no stack, no AWS error, no table name):
 * that is in the function's log.
 */
export const PROBLEM_BASE = "https://rewards.dev/problems/";

export const problemTypes = {
  invalidParameter: { type: `${PROBLEM_BASE}invalid-parameter`, status: 400, title: "Invalid parameter" },
  notFound: { type: `${PROBLEM_BASE}not-found`, status: 404, title: "No such resource" },
  methodNotAllowed: { type: `${PROBLEM_BASE}method-not-allowed`, status: 405, title: "Method not allowed" },
  internal: { type: `${PROBLEM_BASE}internal`, status: 500, title: "Internal error" },
  unavailable: { type: `${PROBLEM_BASE}unavailable`, status: 503, title: "Temporarily unavailable" },
} as const;

export type ProblemKind = keyof typeof problemTypes;

/** The read API's parameters a 400 can name: the reader's. */
export type Parameter = ReadParameter;

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  /** Only for `invalid-parameter`: which one. */
  parameter?: Parameter;
}

export function problemOf(kind: ProblemKind, detail: string, parameter?: Parameter): Problem {
  const { type, title, status } = problemTypes[kind];
  return { type, title, status, detail, ...(parameter === undefined ? {} : { parameter }) };
}
