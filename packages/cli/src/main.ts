import { main } from "./program";

const code = await main(process.argv);
// Exit explicitly: SDK keep-alive sockets would otherwise hold the process open.
process.exit(code);
