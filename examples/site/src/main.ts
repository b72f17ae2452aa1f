/**
 * The reader's page on its own: `READER_URL=… npx tsx examples/site/src/main.ts`, then open the
 * address it prints with ?user=<id>. Signs with the credentials the default chain finds (a
 * deployed stage's function URL), unsigned when it finds none (`rewards dev`'s READER_URL).
 * PORT picks the port (default: any free one).
 */
import { defaultCredentials } from "./readApiClient";
import { startSite } from "./startSite";

const url = process.env.READER_URL;
if (!url) {
  process.stderr.write(
    "READER_URL is not set: run `npx rewards dev` (it serves this page too) or `npx rewards env`\n",
  );
  process.exit(2);
}
const port = Number(process.env.PORT ?? 0);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  process.stderr.write(`PORT must be a port number, not ${JSON.stringify(process.env.PORT)}\n`);
  process.exit(2);
}
const site = await startSite({
  url,
  credentials: await defaultCredentials(),
  port,
  onReadFailure: (error) => process.stderr.write(`read API: ${(error as Error).message ?? String(error)}\n`),
});
process.stdout.write(`The reader's page: ${site.url}?user=<id>  (Ctrl-C stops)\n`);
process.once("SIGINT", () => void site.stop().then(() => process.exit(0)));
process.once("SIGTERM", () => void site.stop().then(() => process.exit(0)));
