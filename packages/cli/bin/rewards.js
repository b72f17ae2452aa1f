#!/usr/bin/env node
// The CLI is TypeScript run through tsx, so there is no build step between an edit and a run.
import { register } from "tsx/esm/api";

// The SDK warns on every run that its 2027 releases will need Node 22; the lockfile pins
// today's release, and the README says so. Set the variable to "false" to see the warning.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
register();
await import("../src/main.ts");
