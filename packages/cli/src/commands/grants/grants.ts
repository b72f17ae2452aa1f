import { defineCommand } from "../../runtime/defineCommand";

export default defineCommand()({
  meta: {
    name: "grants",
    description: "reward.granted events: read them, and replay the announcer's given-up batches",
  },
});
