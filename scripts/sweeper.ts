// `npm run sweeper`: the signing role. Holds SERVICE_HD_MNEMONIC, moves confirmed funds from
// deposit addresses to settlement wallets, and reports its gas wallets. Run it next to web
// instances that have only SERVICE_HD_XPUB (and SERVICE_SWEEPER=separate). Safe to run twice:
// one lease in PostgreSQL lets one sweeper work at a time, and a killed sweeper's successor
// resumes every sweep from its records. With SERVICE_X402_FACILITATOR_PORT it also serves the
// x402 facilitator the web tier settles with (lib/x402/serve-facilitator.ts); give that port to one
// sweeper only, since each keeps its facilitator wallet's nonces in memory.
import { closeDb, createDb } from "../lib/db/client";
import { startPeriodicTask } from "../lib/jobs/periodic-task";
import { log } from "../lib/log";
import { sweepNetworksTask } from "../lib/tasks/sweep-networks-task";
import {
  createBuiltInFacilitator,
  ownX402Payee,
  recordedX402Broadcasts,
  recordX402Broadcast,
} from "../lib/x402/create-built-in-facilitator";
import { reportFacilitatorWalletsTask } from "../lib/x402/report-facilitator-wallets";
import { serveFacilitator } from "../lib/x402/serve-facilitator";
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
  const served = settings.x402.facilitatorServer;
  const facilitator = served
    ? await serveFacilitator({
        facilitator: createBuiltInFacilitator({
          mnemonic,
          networks: settings.networks,
          ownsPayee: ownX402Payee(database),
          recordsBroadcast: recordX402Broadcast(database),
          recordedBroadcasts: recordedX402Broadcasts(database),
          database: () => database,
        }),
        ...served,
        token: settings.x402.facilitatorToken,
      })
    : undefined;
  log.info(
    { networks: settings.networks.map((network) => network.id), x402Facilitator: facilitator?.url },
    "sweeper started",
  );
  // Its facilitator wallet pays the settlements' gas: reported while it serves.
  const stopReport = facilitator
    ? startPeriodicTask(database, reportFacilitatorWalletsTask(mnemonic, settings.networks))
    : undefined;
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  // The pass under way stops at its next checkpoint and the lease goes back before the pool closes.
  await facilitator?.close();
  await stopReport?.();
  await stop();
  await closeDb(database);
});
