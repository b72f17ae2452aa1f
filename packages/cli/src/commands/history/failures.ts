import { failuresCommand } from "../streamFailureVerbs";

export default failuresCommand({
  queue: "HISTORY_FAILURE_QUEUE_URL",
  description:
    "show the history writer's given-up batches (HISTORY_FAILURE_QUEUE_URL): why, and where in the stream, without removing them",
  noneLeft: "no given-up batches: every award the writer was handed is in the history",
});
