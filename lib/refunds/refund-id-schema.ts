import { z } from "zod";

/** A dashboard decision or action on one refund (its form's hidden field). */
export const refundIdSchema = z.strictObject({ id: z.string().min(1).max(64) });
