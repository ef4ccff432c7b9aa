import type { paymentSummaryObject } from "crypto-checkout-agent/shapes";
import type { z } from "zod";

export type PaymentSummary = z.output<typeof paymentSummaryObject>;
