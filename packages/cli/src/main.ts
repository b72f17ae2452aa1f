import { processIo } from "./runtime/io";
import { runProgram } from "./runtime/program";

// The bin's entry (bin/rewards.js): argv → the registry's command → its output → the exit
// code. Exit explicitly: SDK keep-alive sockets would otherwise hold the process open.
process.exit(await runProgram(process.argv, processIo));
