// `npm run sweeper`: the signing role. Holds SERVICE_HD_MNEMONIC, moves confirmed funds from
// deposit addresses to settlement wallets, and reports its gas wallets. Run it next to web
// instances that have only SERVICE_HD_XPUB (and SERVICE_SWEEPER=separate). Safe to run twice:
// one lease in PostgreSQL lets one sweeper work at a time, and a killed sweeper's successor
// resumes every sweep from its records.
import { closeDb, createDb } from "../lib/db/client";
import { startPeriodicTask } from "../lib/jobs/periodic-task";
import { log } from "../lib/log";
import { sweepNetworksTask } from "../lib/tasks/sweep-networks-task";
import { configOrExit } from "./config-or-exit";
import { withDatabase } from "./database";

const settings = configOrExit();
const mnemonic = settings.hdMnemonic;
if (!mnemonic) {
  console.error("SERVICE_HD_MNEMONIC is required: the sweeper signs with the deposit addresses' keys.");
  process.exit(1);
}

await withDatabase(async (url) => {
  const database = createDb(url, Math.min(2, settings.databasePoolSize));
  const stop = startPeriodicTask(database, sweepNetworksTask(mnemonic));
  log.info({ networks: settings.networks.map((network) => network.id) }, "sweeper started");
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  // The pass under way stops at its next checkpoint and the lease goes back before the pool closes.
  await stop();
  await closeDb(database);
});
