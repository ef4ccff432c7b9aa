import type { z } from "zod";
import type { AlongsideWork, Db } from "../db/client";
import { invalidRequest } from "../errors";
import { getPaylink } from "./get-paylink";
import type { disablePaylinkSchema } from "./paylink-schemas";

/** Disables a paylink, only with explicit confirmation (the agent CLI's --confirm). */
export async function disablePaylink(
  database: Db,
  organizationId: string,
  input: z.output<typeof disablePaylinkSchema>,
  alongside?: AlongsideWork,
) {
  const paylink = await getPaylink(database, organizationId, input.id);
  if (input.confirm !== true) {
    throw invalidRequest(
      "confirmation_required",
      'Disabling a paylink stops new checkouts through it. Send "confirm": true to disable it.',
      "confirm",
    );
  }
  return database.$transaction(async (tx) => {
    await alongside?.(tx);
    if (!paylink.enabled) return paylink;
    return tx.paylink.update({ where: { id: paylink.id }, data: { enabled: false } });
  });
}
