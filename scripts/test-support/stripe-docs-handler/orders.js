// The shop's side of the Stripe guide's handler (./server.js): the order functions the guide
// leaves to the reader. They find the order by the reference the shop gave the checkout session
// and append what they did to ORDERS_FILE, one JSON line each, for the test to read.
import { appendFileSync } from "node:fs";

function record(action, session) {
  const line = {
    action,
    order: session.client_reference_id,
    cart: session.metadata.cart,
    email: session.customer_details.email,
    amount: session.amount_total,
    currency: session.currency,
    paymentStatus: session.payment_status,
  };
  appendFileSync(process.env.ORDERS_FILE, `${JSON.stringify(line)}\n`);
}

export const createOrder = (session) => record("created", session);
export const fulfillOrder = (session) => record("fulfilled", session);
export const emailCustomerAboutFailedPayment = (session) => record("emailed", session);

// A refunded charge names the order through the checkout session's metadata.
export const refundOrder = (charge) =>
  appendFileSync(
    process.env.ORDERS_FILE,
    `${JSON.stringify({
      action: "refunded",
      cart: charge.metadata.cart,
      email: charge.billing_details.email,
      amount: charge.amount,
      amountRefunded: charge.amount_refunded,
      fullyRefunded: charge.refunded,
      currency: charge.currency,
      transaction: charge.refunds.data[0].destination_details.crypto.reference,
    })}\n`,
  );
