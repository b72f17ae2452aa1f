#!/usr/bin/env node
// The CLI is TypeScript run through tsx, so there is no build step between an edit and a run.
import { register } from "tsx/esm/api";

register();
await import("../src/main.ts");
