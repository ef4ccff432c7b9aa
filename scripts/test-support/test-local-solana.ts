import { createSolanaRpc } from "@solana/kit";
import type { NetworkConfig } from "@/lib/chains/networks";
import { localSolanaBuyer } from "@/lib/chains/solana/local-solana-accounts";
import type { LocalSolanaChainOptions } from "@/lib/chains/solana/local-solana-chain";
import { localSolanaNetwork } from "@/lib/chains/solana/local-solana-network";
import type { SolanaRpc } from "@/lib/chains/solana/read-solana-transfers";
import { sendSolanaPayTransfer } from "@/lib/chains/solana/send-solana-pay-transfer";
import type { SolanaKeyPair } from "@/lib/chains/solana/solana-keys";
import { solanaServiceKey } from "@/lib/chains/solana/solana-keys";
import { type LocalSolana, startLocalSolana } from "@/lib/chains/solana/start-local-solana";
import { hardhatMnemonic } from "./test-devnet";

export type TestLocalSolana = LocalSolana & {
  network: NetworkConfig;
  rpc: SolanaRpc;
  /** The service's receiving wallet (the mnemonic's receiving key): every invoice's recipient. */
  receiver: string;
  /** Pays as a Solana Pay wallet does (TransferChecked with the references); returns the signature once confirmed. */
  pay: (payment: {
    recipient: string;
    units: bigint;
    references: string[];
    mint?: string;
    payer?: SolanaKeyPair;
  }) => Promise<string>;
};

/**
 * Starts the local Solana chain on a free port, with the receiving wallet's test USDC account
 * open and the fee payer funded, and adds `solana-local` to the app's SERVICE_NETWORKS (after whatever networks are set)
 * with SERVICE_HD_MNEMONIC. Slots follow the real clock (400 ms; `confirmed` is one behind), or
 * `chain`'s clock when given. Stop it in the file's afterAll.
 */
export async function startTestLocalSolana(
  options: { mnemonic?: string; chain?: LocalSolanaChainOptions } = {},
): Promise<TestLocalSolana> {
  const mnemonic = options.mnemonic ?? process.env.SERVICE_HD_MNEMONIC ?? hardhatMnemonic;
  const receiver = solanaServiceKey(mnemonic, "receiving").address;
  const local = await startLocalSolana({
    port: 0,
    chain: options.chain,
    receivers: [receiver],
    feePayers: [solanaServiceKey(mnemonic, "feePayer").address],
  });
  const network = localSolanaNetwork({ rpcUrl: local.url });
  const others = JSON.parse(process.env.SERVICE_NETWORKS ?? "[]") as { id: string }[];
  process.env.SERVICE_NETWORKS = JSON.stringify([
    ...others.filter((other) => other.id !== network.id),
    network,
  ]);
  process.env.SERVICE_HD_MNEMONIC = mnemonic;
  const rpc = createSolanaRpc(local.url) as SolanaRpc;
  return {
    ...local,
    network,
    rpc,
    receiver,
    pay: (payment) =>
      sendSolanaPayTransfer(rpc, {
        payer: payment.payer ?? localSolanaBuyer,
        recipient: payment.recipient,
        mint: payment.mint ?? local.usdcMint,
        decimals: 6,
        units: payment.units,
        references: payment.references,
      }),
  };
}
