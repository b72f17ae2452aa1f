/** `@rewards/read-api`: the HTTP read API, for tests and the local runtime (the handler is `./handler`). */
export { type Answered, answerRequest } from "./function/answerRequest";
export { createHandler, type FunctionUrlHandler } from "./function/createHandler";
export { createReadApiDeps } from "./function/createReadApiDeps";
export { failureOf } from "./function/failureOf";
export { readerOpenApiDocument } from "./function/openApiDocument";
export {
  type Parameter,
  PROBLEM_BASE,
  type Problem,
  type ProblemKind,
  problemOf,
  problemTypes,
} from "./function/problem";
export { type ReadApiConfig, readReadApiConfig } from "./function/readApiConfig";
export type { ReadApiDeps } from "./function/readApiDeps";
export { type RequestLine, ROUTES, type Route, routeOf } from "./function/route";
