/**
 * The `rewards` program, for embedding it (argv and an Io in, the exit code out): nothing else
 * of the CLI is exported. Bench, the soak and the tests use @rewards/ops, @rewards/scenario and
 * @rewards/local instead (docs/architecture.md, "The command line").
 */
export { runProgram } from "./runtime/program";
