import { defineCommand } from "../../runtime/defineCommand";

export default defineCommand()({
  meta: { name: "queue", description: "the main queue (QUEUE_URL)" },
});
