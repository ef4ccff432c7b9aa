import { Inngest } from "inngest";

export const inngest = new Inngest({ id: "crypto-checkout" });

/** Sent when a delivery should be attempted now (after a redelivery or a test event). */
export const deliveryDueEvent = "crypto-checkout/webhook.delivery.due";
