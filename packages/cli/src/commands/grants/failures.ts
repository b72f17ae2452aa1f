import { failuresCommand } from "../streamFailureVerbs";

export default failuresCommand({
  queue: "ANNOUNCER_FAILURE_QUEUE_URL",
  description:
    "show the announcer's given-up batches (ANNOUNCER_FAILURE_QUEUE_URL): why, and where in the stream, without removing them",
  noneLeft: "no given-up batches: every award was announced",
});
