import { authTools } from "./auth";
import { organizationTools } from "./organization";
import { paylinkTools } from "./paylinks";
import { paymentTools } from "./payments";
import { refundTools } from "./refunds";
import { reportTools } from "./reports";
import { settlementTools } from "./settlement";
import { subscriptionTools } from "./subscriptions";
import type { ToolHandlers } from "./tool-context";
import { webhookTools } from "./webhooks";

/** Every remote tool's handler, one file per domain; a tool without a handler does not compile. */
export const toolHandlers: ToolHandlers = {
  ...authTools,
  ...paymentTools,
  ...paylinkTools,
  ...subscriptionTools,
  ...refundTools,
  ...reportTools,
  ...settlementTools,
  ...organizationTools,
  ...webhookTools,
};
