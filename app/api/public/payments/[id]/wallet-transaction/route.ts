import { db } from "@/lib/db/client";
import { readJson } from "@/lib/http/read-json";
import { publicApiRoute } from "@/lib/http/route";
import { buildWalletTransaction } from "@/lib/payments/build-wallet-transaction";
import { walletTransactionSchema } from "@/lib/payments/payment-schemas";
import { serializeWalletTransaction } from "@/lib/payments/serialize-wallet-transaction";

export const POST = publicApiRoute<{ id: string }>(async ({ request, params }) => ({
  body: serializeWalletTransaction(
    await buildWalletTransaction(db(), params.id, await readJson(request, walletTransactionSchema)),
  ),
}));
