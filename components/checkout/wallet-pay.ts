import {
  createPublicClient,
  createWalletClient,
  custom,
  type EIP1193Provider,
  erc20Abi,
  type Hex,
} from "viem";
import { arbitrum, base, mainnet, polygon } from "viem/chains";
import { remainingUnits } from "@/lib/payments/payment-uri";
import type { PublicPayment } from "@/lib/payments/serialize-public-payment";
import { classifyWalletError, transferRequest, WalletStepError } from "@/lib/payments/wallet-transfer";

// Loaded on the buyer's click (a dynamic import), so the page's first load carries no viem clients.

/** Chains a wallet may not know yet, which the page can ask it to add (public RPCs, no keys). */
const addableChains = [mainnet, base, polygon, arbitrum];

export type WalletStep = "connecting" | "switching" | "confirm";

/** Connects, moves the wallet to the invoice's chain, checks the balance and sends the exact transfer. */
export async function payWithWallet(
  provider: EIP1193Provider,
  payment: PublicPayment,
  onStep: (step: WalletStep) => void,
): Promise<Hex> {
  try {
    return await sendPayment(provider, payment, onStep);
  } catch (error) {
    // Classified here, in the lazily loaded chunk, so the page's first load needs no viem errors.
    throw new WalletStepError(classifyWalletError(error));
  }
}

async function sendPayment(
  provider: EIP1193Provider,
  payment: PublicPayment,
  onStep: (step: WalletStep) => void,
): Promise<Hex> {
  const chainId = payment.chainId;
  if (chainId === null) throw new WalletStepError("wrongChain");
  const wallet = createWalletClient({ transport: custom(provider) });
  onStep("connecting");
  const [account] = await wallet.requestAddresses();
  if (!account) throw new WalletStepError("gone");
  if ((await wallet.getChainId()) !== chainId) {
    onStep("switching");
    try {
      await wallet.switchChain({ id: chainId });
    } catch (error) {
      const chain = addableChains.find((candidate) => candidate.id === chainId);
      if (classifyWalletError(error) !== "wrongChain" || !chain) throw error;
      await wallet.addChain({ chain });
    }
    // Some wallets answer a switch without switching; never send on the wrong chain.
    if ((await wallet.getChainId()) !== chainId) throw new WalletStepError("wrongChain");
  }
  const reader = createPublicClient({ transport: custom(provider) });
  const balance = payment.tokenAddress
    ? await reader.readContract({
        address: payment.tokenAddress as Hex,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [account],
      })
    : await reader.getBalance({ address: account });
  if (balance < remainingUnits(payment)) throw new WalletStepError("insufficient");
  onStep("confirm");
  return wallet.sendTransaction({ account, chain: null, ...transferRequest(payment) });
}
