import { defineCommand } from "../../runtime/defineCommand";

export default defineCommand()({
  meta: { name: "dlq", description: "inspect and replay the dead-letter queue (DLQ_URL)" },
});
