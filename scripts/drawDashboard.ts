/**
 * `npx tsx scripts/drawDashboard.ts`: writes docs/pictures/dashboard.svg, the operator's
 * dashboard as infra/dashboardSpec.ts lays it out (infra/dashboardPicture.ts draws it), with
 * stand-in names. infra/test/dashboard.test.ts ("the picture in docs is the spec's") fails
 * when the committed picture drifts from the spec: run this again and commit it.
 */
import { writeFile } from "node:fs/promises";
import { dashboardPicture } from "../infra/dashboardPicture";
import { dashboardSpec, PICTURE_NAMES } from "../infra/dashboardSpec";

const PICTURE_FILE = new URL("../docs/pictures/dashboard.svg", import.meta.url);

await writeFile(PICTURE_FILE, dashboardPicture(dashboardSpec(PICTURE_NAMES)));
process.stdout.write(`wrote ${PICTURE_FILE.pathname}\n`);
