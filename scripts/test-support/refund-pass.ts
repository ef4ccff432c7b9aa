// One refund pass over every configured network, as a process of its own (lib/refunds/
// refunds.int.test.ts, solana-refunds.int.test.ts): it SIGKILLs itself between recording a
// transfer and broadcasting it, the worst moment for a crash, so the test can show that the next
// pass sends that transfer once.

import { chainFamily } from "../../lib/chains/chain-families";
import { clientFor } from "../../lib/chains/evm/evm-client";
import { config } from "../../lib/config";
import { closeDb, createDb } from "../../lib/db/client";
import { advanceRefunds } from "../../lib/refunds/advance-refunds";
import { advanceTransferRefunds } from "../../lib/refunds/advance-transfer-refunds";
import { sweeperKeysFromMnemonic } from "../../lib/sweeps/sweeper-keys";

const settings = config();
const mnemonic = settings.hdMnemonic as string;
const keys = sweeperKeysFromMnemonic(mnemonic);
const database = createDb(settings.databaseUrl as string, 1);
const beforeBroadcast = () => {
  process.kill(process.pid, "SIGKILL");
};
for (const network of settings.networks)
  if (chainFamily(network).serviceTransfers)
    await advanceTransferRefunds(database, network, { mnemonic, beforeBroadcast });
  else await advanceRefunds(database, network, clientFor(network), { keys, beforeBroadcast });
await closeDb(database);
