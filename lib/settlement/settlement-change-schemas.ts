import { z } from "zod";

/** The dashboard's confirm, reject and cancel forms: the change's id. */
export const settlementChangeIdSchema = z.strictObject({
  id: z.string().regex(/^stc_[A-Za-z0-9_-]{1,60}$/, { error: "must be a settlement change id (stc_…)" }),
});
