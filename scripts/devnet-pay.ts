// `npm run devnet:pay -- <invoice id> [amount]`: pays an invoice on the local devnet from the
// test wallet's account (the remaining amount by default), so the zero-setup demo needs no wallet.
// It asks the running app (found as scripts/running-app.ts says), whose test wallet
// (lib/payments/pay-invoice-on-devnet.ts) knows the devnet and sends USDC or ETH as the invoice
// wants; the checkout page's button does the same.
import { runningAppUrl } from "./running-app";

const [invoiceId, amount] = process.argv.slice(2);
if (!invoiceId?.startsWith("inv_") || (amount && !/^\d+(\.\d+)?$/.test(amount))) {
  console.error("usage: npm run devnet:pay -- <invoice id (inv_…)> [amount]");
  process.exit(2);
}

const app = await runningAppUrl();
const response = await fetch(`${app}/api/public/payments/${invoiceId}/devnet-pay`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(amount ? { amount } : {}),
}).catch(() => null);
if (!response) {
  console.error(`The app does not answer at ${app} (is \`npm start\` running?)`);
  process.exit(1);
}
const body = await response.json();
if (!response.ok) {
  console.error(
    response.status === 404
      ? `No devnet payment ${invoiceId} at ${app} (devnet:pay pays devnet invoices only).`
      : body.error?.message,
  );
  process.exit(1);
}
console.log(`sent ${body.amount} ${body.token} to ${body.depositAddress} (tx ${body.txHash})`);
