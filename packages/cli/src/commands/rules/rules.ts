import { defineCommand } from "../../runtime/defineCommand";

export default defineCommand()({
  meta: {
    name: "rules",
    description:
      "the site's own rules (docs/rules.md): types, XP, campaigns and achievements as data, published as versions to TABLE_NAME",
  },
});
