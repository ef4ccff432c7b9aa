"use server";

import { db } from "@/lib/db/client";
import { memberAction } from "@/lib/http/dashboard-session";
import { cancelSettlementChange } from "@/lib/settlement/cancel-settlement-change";
import { confirmSettlementChange } from "@/lib/settlement/confirm-settlement-change";
import { rejectSettlementChange } from "@/lib/settlement/reject-settlement-change";
import { settlementChangeIdSchema } from "@/lib/settlement/settlement-change-schemas";
import { retrySweep, retrySweepSchema } from "@/lib/sweeps/retry-sweep";

// Money moves: owners only.
export const retrySweepAction = memberAction("sweeps.retry", retrySweepSchema, (member, input) =>
  retrySweep(db(), member.organization.id, input),
);

// Where money goes: an owner who signed in within the last 10 minutes decides.
export const confirmSettlementChangeAction = memberAction(
  "settlement.decide",
  settlementChangeIdSchema,
  async (member, input) =>
    (await confirmSettlementChange(db(), member.organization.id, { id: input.id, userId: member.user.id }))
      .status,
);

export const rejectSettlementChangeAction = memberAction(
  "settlement.decide",
  settlementChangeIdSchema,
  async (member, input) =>
    (await rejectSettlementChange(db(), member.organization.id, { id: input.id, userId: member.user.id }))
      .status,
);

export const cancelSettlementChangeAction = memberAction(
  "settlement.decide",
  settlementChangeIdSchema,
  async (member, input) =>
    (await cancelSettlementChange(db(), member.organization.id, { id: input.id, userId: member.user.id }))
      .status,
);
