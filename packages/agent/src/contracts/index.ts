import { checkoutContracts } from "./checkout";
import type { Contract } from "./contract";
import { organizationContracts } from "./organization";
import { paylinkContracts } from "./paylinks";
import { paymentContracts } from "./payments";
import { refundContracts } from "./refunds";
import { reportContracts } from "./reports";
import { subscriptionContracts } from "./subscriptions";
import { webhookContracts } from "./webhooks";

// Every operation's contract (./contract.ts says what derives from one), one file per domain
// beside its tools. The published kit exports them as `crypto-checkout-agent/contracts`.

export * from "./checkout";
export * from "./contract";
export * from "./organization";
export * from "./paylinks";
export * from "./payments";
export * from "./refunds";
export * from "./reports";
export * from "./subscriptions";
export * from "./webhooks";

/** Every contract: a new domain's list joins here. */
export const contracts: readonly Contract[] = [
  ...checkoutContracts,
  ...paylinkContracts,
  ...paymentContracts,
  ...subscriptionContracts,
  ...refundContracts,
  ...reportContracts,
  ...organizationContracts,
  ...webhookContracts,
];
