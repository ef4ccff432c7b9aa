// The app's API routes and its in-process job engine (and, with SERVICE_SWEEPER=in-process, the
// signer's) as a process of its own, for a test to SIGKILL (scripts/faults.int.test.ts). Prints
// its URL once it listens.
import { config } from "../../lib/config";
import { startBackgroundJobs } from "../../lib/tasks/start-background-jobs";
import { appRoutes } from "./app-routes";
import { serveApp } from "./serve-route";

const app = await serveApp(await appRoutes(), config().baseUrl);
startBackgroundJobs();
process.stdout.write(`${app.url}\n`);
