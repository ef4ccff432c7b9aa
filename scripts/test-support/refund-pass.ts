// One refund pass over every configured network, as a process of its own (lib/refunds/
// refunds.int.test.ts): it SIGKILLs itself between recording a transfer and broadcasting it, the
// worst moment for a crash, so the test can show that the next pass sends that transfer once.

import { clientFor } from "../../lib/chains/evm/evm-client";
import { config } from "../../lib/config";
import { closeDb, createDb } from "../../lib/db/client";
import { advanceRefunds } from "../../lib/refunds/advance-refunds";
import { sweeperKeysFromMnemonic } from "../../lib/sweeps/sweeper-keys";

const settings = config();
const keys = sweeperKeysFromMnemonic(settings.hdMnemonic as string);
const database = createDb(settings.databaseUrl as string, 1);
for (const network of settings.networks)
  await advanceRefunds(database, network, clientFor(network), {
    keys,
    beforeBroadcast: () => {
      process.kill(process.pid, "SIGKILL");
    },
  });
await closeDb(database);
